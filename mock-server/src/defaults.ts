// Shared by the server and the CLIs; kept apart so the admin CLI starts without loading Prism.
export const DEFAULT_TOKEN = "mock-token";
export const DEFAULT_MAX_PER_PAGE = 100;
export const DEFAULT_PORT = 4010;
