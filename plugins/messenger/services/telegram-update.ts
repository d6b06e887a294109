import { z } from "@muster/plugin";

// The parts of a Bot API Update Muster reads; other fields are allowed and ignored.
const chat = z.looseObject({ id: z.number().int() });
const user = z.looseObject({ id: z.number().int() });
const message = z.looseObject({
  message_id: z.number().int(),
  chat,
  from: user.optional(),
  text: z.string().optional(),
  photo: z.array(z.looseObject({ file_id: z.string().min(1).max(256), file_size: z.number().int().optional() })).optional(),
  document: z.looseObject({ file_id: z.string().min(1).max(256), mime_type: z.string().max(255).optional(), file_size: z.number().int().optional() }).optional(),
});

export const telegramUpdate = z.looseObject({
  update_id: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
  message: message.optional(),
  callback_query: z
    .looseObject({
      id: z.string().min(1).max(256),
      from: user,
      message: message.optional(),
      data: z.string().optional(),
    })
    .optional(),
});

export type TelegramUpdate = z.output<typeof telegramUpdate>;
export type TelegramMessage = z.output<typeof message>;
export type TelegramCallback = NonNullable<TelegramUpdate["callback_query"]>;
