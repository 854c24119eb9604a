/** The pgpass module (the one pg itself uses) ships no types: the one function used here. */
declare module 'pgpass' {
  /** A connection as pg describes it (its ConnectionParameters): the port a number there. */
  export interface ConnectionInfo {
    host: string;
    port: string | number;
    database: string;
    user: string;
  }
  /** Calls back with the password the password file (PGPASSFILE or ~/.pgpass) holds for the connection, if any. */
  function pgpass(connection: ConnectionInfo, callback: (password: string | undefined) => void): void;
  export default pgpass;
}
