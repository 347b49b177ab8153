/** The shape of one migration module. */

/** One schema change. Applied once, in `id` order, in its own transaction; never edited once released. */
export interface Migration {
  /** Position in the sequence (1, 2, ...); also the primary key in `schema_migrations`. */
  readonly id: number;
  /** Short name, recorded beside the id (a renamed or renumbered migration is refused at startup). */
  readonly name: string;
  /** One or more statements, without parameters. */
  readonly sql: string;
}
