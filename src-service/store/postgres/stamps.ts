/**
 * The stamps of kept answers (ServiceStore.answerStamp), read for many requests in one round trip.
 *
 * Nearly every read request of a client that syncs asks for one: its kept answer is given only while its
 * stamp is the database's. One statement a request was PostgreSQL's most frequent (0.9 a request of the
 * benchmark's mix), each a round trip of its own for the instance and PostgreSQL alike. Instead, the stamps
 * asked for while a read of stamps is on its way wait for it to come back, and are then read together, in
 * one statement (one snapshot): under load, many in one round trip; alone, at once as before. They are read
 * on a connection of their own (serving.ts): at the end of the pool's queue, the read that every request
 * asking for a stamp waits for would wait for all the others (in the benchmark, with the pool's connections,
 * two instances served 0.17-0.95 of what they had served before this file in three of four rounds).
 *
 * The freshness rule holds: a stamp is read by a statement sent after it was asked for, so it shows every
 * commit answered before the request came in (a client's own write, on any instance, included). A stamp is
 * never taken from a read that was already on its way when it was asked for.
 */
import type { Queryable } from './connect';

/**
 * For each (user, account) pair of the two arrays, in their order: the user's count of changes, and the
 * count of the one account the answer is about, or the sum of the counts of every account the user holds
 * (account 0). Counts only grow, and a change of which accounts the user holds changes the user's count:
 * the same stamp means nothing the answer shows has changed. Each count is looked up by its key (a
 * subquery per pair), whatever the plan thinks of the sizes of the tables.
 */
const STAMPS = {
  name: 'answers.stamps',
  text: `SELECT COALESCE((SELECT changes FROM user_changes WHERE user_id = s.user_id), 0) || ':' ||
    CASE WHEN s.account_id = 0
      THEN (SELECT COALESCE(sum(c.changes), 0) FROM account_permissions p JOIN account_changes c ON c.account_id = p.account_id
            WHERE p.user_id = s.user_id)
      ELSE (SELECT COALESCE(max(changes), 0) FROM account_changes WHERE account_id = s.account_id) END
    FROM unnest($1::bigint[], $2::bigint[]) WITH ORDINALITY AS s(user_id, account_id, n) ORDER BY s.n`.replace(/\s+/g, ' '),
};

interface Asked {
  resolve: (stamp: string) => void;
  reject: (error: unknown) => void;
}

/** A pair asked for, and the requests waiting for its stamp. */
interface Pair {
  userId: number;
  accountId: number;
  waiting: Asked[];
}

export class StampReads {
  /** The stamps asked for since the last read was sent, by their pair ("user:account"). */
  private asked = new Map<string, Pair>();
  private reading = false;
  /** Statements sent (diagnostics and tests). */
  reads = 0;

  constructor(private readonly db: Queryable) {}

  stamp(userId: number, accountId: number): Promise<string> {
    return new Promise((resolve, reject) => {
      const key = `${userId}:${accountId}`;
      const pair = this.asked.get(key);
      if (pair === undefined) this.asked.set(key, { userId, accountId, waiting: [{ resolve, reject }] });
      else pair.waiting.push({ resolve, reject });
      if (!this.reading) this.readAsked();
    });
  }

  /** Sends one statement for every stamp asked for until now; once it is back, the next for those asked meanwhile. */
  private readAsked(): void {
    const pairs = [...this.asked.values()];
    this.asked = new Map();
    this.reading = true;
    this.reads += 1;
    const users = pairs.map((p) => p.userId);
    const accounts = pairs.map((p) => p.accountId);
    this.db.query<[string]>({ ...STAMPS, values: [users, accounts], rowMode: 'array' }).then(
      ({ rows }) => {
        this.readNext();
        for (const [i, { waiting }] of pairs.entries()) {
          const row = rows[i];
          for (const w of waiting) {
            if (row === undefined) w.reject(new Error(`The stamps read were ${rows.length}, not the ${pairs.length} asked for.`));
            else w.resolve(row[0]);
          }
        }
      },
      (error: unknown) => {
        this.readNext();
        for (const { waiting } of pairs) for (const w of waiting) w.reject(error);
      },
    );
  }

  /** The read on its way is back: those asked for meanwhile are read now. */
  private readNext(): void {
    this.reading = false;
    if (this.asked.size > 0) this.readAsked();
  }
}
