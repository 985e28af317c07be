/**
 * Key changes over Redis pub/sub: an instance (or the CLI) that revokes or rotates a key
 * publishes its id; every serving instance subscribed empties its key cache. Redis hands the
 * message to subscribers before it answers the publisher, so a request sent after
 * `lugha keys revoke` returns finds the key gone. A lost message (a subscriber reconnecting)
 * is covered by the cache's own expiry (KEY_CACHE_TTL_MS).
 */
import { Redis } from 'ioredis';
import type { KeyChangeFeed } from './key-service.js';

export class RedisKeyChanges implements KeyChangeFeed {
  readonly #publisher: Redis;
  readonly #channel: string;
  #subscriber: Redis | undefined;

  /** `publisher` is an open connection (the quota counter's); a subscriber is opened on first `subscribe`. */
  constructor(publisher: Redis, prefix: string) {
    this.#publisher = publisher;
    this.#channel = `${prefix}key-changes`;
  }

  async publish(keyId: string): Promise<void> {
    await this.#publisher.publish(this.#channel, keyId);
  }

  async subscribe(listener: (keyId: string) => void): Promise<void> {
    const subscriber = (this.#subscriber ??= this.#publisher.duplicate({ enableOfflineQueue: true, lazyConnect: false }));
    subscriber.on('error', () => {});
    // Messages published while the connection was down are lost: a reconnect empties the cache too.
    let connected = false;
    subscriber.on('ready', () => {
      if (connected) listener('');
      connected = true;
    });
    subscriber.on('message', (channel: string, keyId: string) => {
      if (channel === this.#channel) listener(keyId);
    });
    // After a reconnect ioredis subscribes again; anything published meanwhile is covered by the cache's expiry.
    await subscriber.subscribe(this.#channel);
  }

  close(): void {
    this.#subscriber?.disconnect();
    this.#subscriber = undefined;
  }
}
