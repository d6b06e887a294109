import { defineErrors } from "@muster/plugin";

/** Error catalogue of the feedback plugin. */
export const feedbackErrors = defineErrors({
  FEEDBACK_FILE_UNWRITABLE: { status: 409, message: (p) => `The learnings file ${p.path} is not a regular file that can be appended to` },
});
