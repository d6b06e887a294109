// Errors of the service container: wiring mistakes a plugin author fixes in the plugin's
// definition (status 500 by convention: they stop the start or fail a request as a bug).
import { defineErrors } from "../plugin-api/errors.ts";

export const containerErrors = defineErrors({
  TOKEN_NOT_DECLARED: {
    status: 500,
    message: 'Plugin "{plugin}" resolved "{token}" of plugin "{owner}" without declaring it: add "{owner}" to its dependsOn (or optionalDependsOn)',
  },
  SERVICE_NOT_PROVIDED: {
    status: 500,
    message: 'No service "{token}" is registered (needed by {neededBy}); is the plugin that provides it loaded and listed in dependsOn?',
  },
  SERVICE_PROVIDED_TWICE: { status: 500, message: 'Service "{token}" is provided twice (by "{first}" and "{second}")' },
  SERVICE_WITHOUT_TOKEN: { status: 500, message: 'Plugin "{plugin}" registered a service without a token' },
});
