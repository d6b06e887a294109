// Environment variables the vault must never set for child processes: they change what
// a child executes or loads (PATH, NODE_OPTIONS, LD_PRELOAD, ...), where it trusts or
// sends data, or they are Muster's own credentials.

/** Muster's own credentials: removed from every child environment and never injectable. */
export const CREDENTIAL_VARIABLES: readonly string[] = ["VAULT_KEY", "NEW_VAULT_KEY", "GATEWAY_TOKEN", "MUSTER_API_TOKEN"];

const EXACT = new Set<string>([
  ...CREDENTIAL_VARIABLES,
  // where programs and libraries are found, and how shells start
  "PATH", "HOME", "SHELL", "USER", "LOGNAME", "PWD", "OLDPWD", "IFS", "ENV", "BASH_ENV", "CDPATH", "PS4", "PROMPT_COMMAND",
  "TMPDIR", "TMP", "TEMP", "TERM", "LANG", "TZ", "TZDIR", "LOCALDOMAIN", "HOSTALIASES", "RES_OPTIONS",
  // language runtimes that load code from the environment
  "NODE_OPTIONS", "NODE_PATH", "NODE_EXTRA_CA_CERTS", "NODE_TLS_REJECT_UNAUTHORIZED", "NODE_ENV", "NODE_REPL_EXTERNAL_MODULE",
  "PYTHONPATH", "PYTHONSTARTUP", "PYTHONHOME", "PERL5LIB", "PERL5OPT", "PERLLIB", "RUBYOPT", "RUBYLIB", "JAVA_TOOL_OPTIONS", "_JAVA_OPTIONS", "CLASSPATH",
  // tools Muster itself runs (git), editors and pagers they may start
  "SSH_ASKPASS", "SSH_AUTH_SOCK",
  "EDITOR", "VISUAL", "PAGER", "LESSOPEN", "LESSCLOSE", "XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CONFIG_DIRS",
  // network trust and routing
  "HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "NO_PROXY", "SSL_CERT_FILE", "SSL_CERT_DIR", "CURL_CA_BUNDLE", "REQUESTS_CA_BUNDLE",
  "GATEWAY_URL", "HOST", "PORT",
]);

/**
 * Whole families: the dynamic loader (LD_*, DYLD_*), Muster's own settings, glibc and npm
 * knobs, and every GIT_* variable (GIT_EXTERNAL_DIFF, GIT_PROXY_COMMAND, GIT_EDITOR,
 * GIT_TEMPLATE_DIR, GIT_CONFIG_* and more make git run a command of the caller's choice).
 */
const PREFIXES = ["LD_", "DYLD_", "MUSTER_", "BASH_FUNC_", "GIT_", "GCONV_", "MALLOC_", "NPM_CONFIG_"];

/** Whether the vault refuses to inject under this name. */
export function isProtectedVariable(name: string): boolean {
  return EXACT.has(name) || PREFIXES.some((prefix) => name.startsWith(prefix));
}
