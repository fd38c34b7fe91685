/** Calls a route handler the way Next does, for integration tests of the REST edge. */
type Handler = (
  request: Request,
  context: { params: Promise<Record<string, string>> },
) => Promise<Response>;

export const callRoute = (
  handler: Handler,
  options: {
    method?: string;
    path: string;
    token?: string;
    body?: unknown;
    /** Sent as is (bytes: a compressed body). */
    rawBody?: string | Uint8Array<ArrayBuffer>;
    headers?: Record<string, string>;
    params?: Record<string, string>;
  },
) => {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  let body: string | Uint8Array<ArrayBuffer> | undefined = options.rawBody;
  if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers["content-type"] ??= "application/json";
  }
  const request = new Request(`http://localhost:3000/api/v1${options.path}`, {
    method: options.method ?? (body === undefined ? "GET" : "POST"),
    headers,
    body,
  });
  return handler(request, { params: Promise.resolve(options.params ?? {}) });
};
