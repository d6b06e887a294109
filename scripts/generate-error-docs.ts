// `npm run errors:doc`: regenerates docs/errors.md from every error catalogue.
import { writeFileSync } from "node:fs";
import { collectErrors, ERRORS_DOC, rel, renderErrorsDoc } from "./error-catalogue.ts";

const errors = await collectErrors();
writeFileSync(ERRORS_DOC, renderErrorsDoc(errors));
console.log(`${rel(ERRORS_DOC)}: ${errors.length} error codes`);
