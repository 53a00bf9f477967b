/**
 * A small reverse proxy in front of several app nodes, standing in for the Caddy of
 * deploy/Caddyfile: round robin, WebSockets passed through, X-Forwarded-For set to the
 * client's address (whatever the client sent is dropped, as Caddy does for clients it does
 * not trust), and a request whose node refuses the connection tried on the next node
 * (Caddy's lb_try_duration). Built on http-proxy. Each answer names the port of the node
 * that served it in `x-upstream`, so tests can tell which node did what.
 */
import { createServer, type IncomingMessage, type Server } from "node:http";
import { Readable } from "node:stream";
import httpProxy from "http-proxy";
import { freePort } from "./ports";

export interface ReverseProxy {
  kind: "http-proxy" | "caddy";
  url: string;
  /** Everything the proxy printed (for failure messages). */
  output(): string;
  close(): Promise<void>;
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => resolve(Buffer.concat(chunks)));
    req.on("error", reject);
  });
}

export async function startReverseProxy(upstreams: string[]): Promise<ReverseProxy> {
  // No agent: a new connection per request, so a node's stop never races a reused idle one.
  const proxy = httpProxy.createProxyServer({ xfwd: true });
  proxy.on("proxyRes", (proxyRes, req) => {
    proxyRes.headers["x-upstream"] = new URL(upstreams[(req as IncomingMessage & { upstream?: number }).upstream!]!).port;
  });
  let next = 0;
  const pick = () => next++ % upstreams.length;

  const forgetForwarded = (req: IncomingMessage) => {
    for (const h of ["x-forwarded-for", "x-forwarded-port", "x-forwarded-proto"]) delete req.headers[h];
  };

  const server: Server = createServer((req, res) => {
    void readBody(req).then((body) => {
      const first = pick();
      const attempt = (tries: number) => {
        forgetForwarded(req);
        const upstream = (first + tries) % upstreams.length;
        (req as IncomingMessage & { upstream?: number }).upstream = upstream;
        proxy.web(req, res, { target: upstreams[upstream], buffer: Readable.from([body]) }, (err: NodeJS.ErrnoException) => {
          // Refused: nothing reached that node, so the next one may take it.
          if (err.code === "ECONNREFUSED" && tries + 1 < upstreams.length) return attempt(tries + 1);
          if (!res.headersSent) res.writeHead(502, { "content-type": "text/plain" });
          res.end(`proxy: ${err.code ?? err.message}`);
        });
      };
      attempt(0);
    });
  });
  server.on("upgrade", (req: IncomingMessage, socket, head: Buffer) => {
    forgetForwarded(req);
    const upstream = pick();
    socket.on("error", () => {});
    proxy.ws(req, socket, head, { target: upstreams[upstream] }, () => socket.destroy());
  });

  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  return {
    kind: "http-proxy",
    url: `http://127.0.0.1:${port}`,
    output: () => "",
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        proxy.close();
        server.close(() => resolve());
      }),
  };
}
