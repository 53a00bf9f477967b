/**
 * The fault tests start their own redis-server processes and app nodes; they need a
 * PostgreSQL (found, or embedded for the run) and `redis-server` on PATH
 * (tests/support/test-services.ts).
 */
import { providePostgres, requireRedisServer, tearDown, type Teardown } from "../support/test-services";

export default async function setup() {
  requireRedisServer();
  const teardowns: Teardown[] = [await providePostgres()];
  return () => tearDown(teardowns);
}
