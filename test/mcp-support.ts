/** MCP test fixtures: a client linked in-process to Lugha's MCP server for a key of a given tier. */
import { Client, InMemoryTransport } from '@modelcontextprotocol/client';
import type { Tier } from '../src/access/plans.js';
import { createLughaMcpServer, type LughaMcpServerOptions } from '../src/mcp/server.js';
import type { Harness } from './helpers.js';

export interface LinkedClient {
  client: Client;
  keyId: string;
  close(): Promise<void>;
}

/** A client connected in-process to a server built for a fresh key of `tier` (with `extra` server options). */
export async function linkedClient(h: Harness, tier: Tier, extra: Partial<LughaMcpServerOptions> = {}): Promise<LinkedClient> {
  const { key, id } = await h.issue(tier);
  const authorize = async () => {
    const auth = await h.services.keys.authenticate(`Bearer ${key}`);
    return auth.ok ? { ok: true as const, principal: auth.value } : { ok: false as const, code: auth.code, message: auth.message };
  };
  const first = await authorize();
  if (!first.ok) throw new Error(first.message);
  const server = createLughaMcpServer({ services: h.services, principal: first.principal, authorize, ...extra });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'lugha-test', version: '1.0.0' });
  await client.connect(clientSide);
  return {
    client,
    keyId: id,
    async close() {
      await client.close();
      await server.close();
    },
  };
}

/** The text of a tool result's first content block. */
export function textOf(result: { content?: unknown }): string {
  const content = result.content as Array<{ type: string; text?: string }> | undefined;
  return content?.find((c) => c.type === 'text')?.text ?? '';
}
