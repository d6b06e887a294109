import { defineErrors } from "@muster/plugin";

/** Error catalogue of the release-notes plugin (codes carry its prefix RELEASE_NOTES_): the host turns a thrown one into the error envelope. */
export const releaseNotesErrors = defineErrors("release-notes", {
  RELEASE_NOTES_NOT_FOUND: { status: 404, message: "No release note with id {id}" },
  RELEASE_NOTES_FULL: { status: 409, message: "The release notes already hold {max} notes (config maxNotes)" },
});
