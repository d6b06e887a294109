import { defineErrors } from "@muster/plugin";

/** Error catalogue of the feedback plugin. */
export const feedbackErrors = defineErrors("feedback", {
  FEEDBACK_FILE_UNWRITABLE: { status: 409, message: "The learnings file {path} is not a regular file that can be appended to" },
});
