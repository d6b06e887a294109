import { DriverException, raw, type EntitySchema, type FilterQuery, type InferEntity, type Opt, type QueryOrderMap } from "@mikro-orm/core";
import type { QueryBuilder } from "@mikro-orm/sql";
import type { Database, EntityRow } from "./context.ts";

/**
 * The store kit: a typed store derived from an entity, so that a plugin's store writes only
 * what is particular to its tables (Medusa v2's `MedusaService(entities)` is the model).
 *
 * Every method is asynchronous and goes through MikroORM's query builder: no driver is named,
 * so the same store runs on any database MikroORM supports (issue 25 puts them on
 * PostgreSQL). Reads return plain rows typed {@link EntityRow} (`execute("all")`), never
 * entities: hydration cost ~12x on list reads. A statement that runs on every request (a hot
 * list, a create) may instead be a `preparedStatement` (prepared-statement.ts): prepared once
 * per connection on either engine, without the query builder's work per call.
 *
 * @example
 * const notes = defineStore(Note, { orderBy: [{ createdAt: "desc" }, insertionOrder("desc")] });
 * class NoteStore {
 *   private readonly rows: EntityStore<typeof Note>;
 *   constructor(db: () => Database) { this.rows = notes.on(db); }
 *   page(limit: number, offset: number) { return this.rows.list({ where: { archived: false }, limit, offset }); }
 *   // the one atomic conditional step: only a draft is published, by exactly one caller
 *   publish(id: string, at: string) { return this.rows.transition(id, { from: { status: "draft" }, set: { status: "published", publishedAt: at } }); }
 * }
 */

/** A filter over an entity's columns: equality by value, or MikroORM operators (`$in`, `$gt`, `$or`, ...). */
export type StoreFilter<S> = FilterQuery<InferEntity<S>>;

/** A sort: one or more `{ column: "asc" | "desc" }`, applied in order (raw keys such as {@link insertionOrder} included). */
export type StoreOrder<S> = QueryOrderMap<InferEntity<S>> | QueryOrderMap<InferEntity<S>>[];

/** Column names of an entity's row. */
export type StoreField<S> = keyof EntityRow<S> & string;

export interface StoreOptions<S, K extends StoreField<S>> {
  /** The primary key column `get`/`update`/`delete`/`transition` address; by default the entity's primary property. */
  key?: K;
  /** The columns a read returns, unless a read names its own; every column by default. */
  fields?: readonly StoreField<S>[];
  /** The order of `list` unless it names one; unordered by default (put a unique column last for stable pages). */
  orderBy?: StoreOrder<S>;
  /**
   * Whether rows are mapped to property types (booleans as booleans, JSON columns parsed).
   * Default true. A table whose columns need no conversion (text and numbers only) may say
   * false: the rows come back as the driver returns them, which saves a copy per row on hot
   * lists. Column names are property names either way (the host's naming strategy).
   */
  mapRows?: boolean;
}

export interface ListQuery<S, F extends StoreField<S>> {
  where?: StoreFilter<S>;
  /** Replaces the store's default order. */
  orderBy?: StoreOrder<S>;
  /** At most this many rows; all when absent. */
  limit?: number;
  /** Rows to skip first (offset paging, the API's `offset`). */
  offset?: number;
  /** Only these columns (the row type narrows to them). */
  fields?: readonly F[];
}

/** The values of a new row: every column, except those with a default or that may be null, which may be left out. */
export type NewRow<S> = Partial<EntityRow<S>> & Pick<EntityRow<S>, RequiredColumn<S>>;
/** A column without a default (`Opt`) that may not be null. */
type RequiredColumn<S> = { [P in keyof InferEntity<S>]-?: InferEntity<S>[P] extends Opt ? never : null extends InferEntity<S>[P] ? never : undefined extends InferEntity<S>[P] ? never : P }[keyof InferEntity<S>] & keyof EntityRow<S>;

export interface Transition<S> {
  /** What the row must still hold for the change to happen (ANDed with its key). */
  from: StoreFilter<S>;
  /** The new values. */
  set: Partial<EntityRow<S>>;
}

/** A typed store over one entity's table; see {@link defineStore}. */
export interface EntityStore<S, K extends StoreField<S> = "id" & StoreField<S>> {
  /** The row with this key, or null. */
  get(key: EntityRow<S>[K]): Promise<EntityRow<S> | null>;
  /** The first row matching `where` in the store's order, or null. */
  find(where: StoreFilter<S>): Promise<EntityRow<S> | null>;
  /** The rows matching `where`, in the given or default order, one page of them when `limit`/`offset` say so. */
  list<F extends StoreField<S> = StoreField<S>>(query?: ListQuery<S, F>): Promise<Pick<EntityRow<S>, F>[]>;
  /** How many rows match `where` (all rows without it). */
  count(where?: StoreFilter<S>): Promise<number>;
  /** Inserts one row, or several in one statement; a taken key fails with MikroORM's `UniqueConstraintViolationException`. */
  insert(values: NewRow<S> | NewRow<S>[]): Promise<void>;
  /** Changes the row with this key; whether there was one. */
  update(key: EntityRow<S>[K], patch: Partial<EntityRow<S>>): Promise<boolean>;
  /** Deletes the row with this key; whether there was one. */
  delete(key: EntityRow<S>[K]): Promise<boolean>;
  /**
   * The atomic conditional step: sets `set` on the row with this key only while it still
   * matches `from`, as ONE statement (`UPDATE ... WHERE key = ? AND <from> RETURNING *`),
   * and returns the changed row, or null when the row is gone or no longer matches. The
   * condition and the write cannot be split by another request, on any database: of any
   * number of concurrent callers, exactly one gets the row.
   */
  transition(key: EntityRow<S>[K], step: Transition<S>): Promise<EntityRow<S> | null>;
  /**
   * A query builder over the table, for what the methods above do not say (an aggregate, a
   * bulk update, a conditional statement over many rows). Read with `execute("all")`.
   */
  qb(): QueryBuilder<InferEntity<S> & object>;
}

export interface StoreDefinition<S, K extends StoreField<S>> {
  readonly entity: S;
  /** The store over `db` (or a function giving it: the database is usable only after migrations, so services pass `() => db`). */
  on(db: Database | (() => Database)): EntityStore<S, K>;
}

/** The keys {@link insertionOrder} made: the kit recognises them on databases without a `rowid`. */
const insertionKeys = new Set<PropertyKey>();

/**
 * The tie-break that keeps rows with equal sort values in insertion order (SQLite's `rowid`).
 * The one SQLite-specific sort key: stores name it through this helper, so that moving to
 * another database changes it here. PostgreSQL has no insertion order to sort by: there the
 * kit breaks ties by the store's key instead (deterministic pages, not insertion order;
 * docs/team.md).
 */
export function insertionOrder(direction: "asc" | "desc"): Record<string, "asc" | "desc"> {
  const order = { [raw("rowid")]: direction };
  // The fragment becomes a symbol key when used as one: remember that key.
  for (const key of Reflect.ownKeys(order)) insertionKeys.add(key);
  return order;
}

/** `order` with {@link insertionOrder}'s keys replaced by `key` where the database has no `rowid`. */
function portableOrder(order: Record<string, unknown>[], hasRowid: boolean, key: string): Record<string, unknown>[] {
  if (hasRowid) return order;
  return order.map((o) => Object.fromEntries(Reflect.ownKeys(o).map((k) => [insertionKeys.has(k) ? key : k, o[k as string]])));
}

/**
 * Derives a store from a MikroORM entity (`defineEntity`); call `.on(db)` for the store.
 * Define it once at module level: the columns and order are worked out once.
 */
export function defineStore<S extends EntitySchema<any, any>, K extends StoreField<S> = "id" & StoreField<S>>(entity: S, options: StoreOptions<S, K> = {}): StoreDefinition<S, K> {
  const properties = entity.meta.properties as Record<string, { primary?: boolean }>;
  const key = (options.key ?? Object.keys(properties).find((name) => properties[name]!.primary)) as string | undefined;
  if (!key) throw new TypeError(`defineStore(${entity.meta.className}): the entity has no primary property; name the key column with { key }`);
  const fields = [...(options.fields ?? Object.keys(properties))] as string[];
  const mapped = options.mapRows ?? true;
  const order = options.orderBy ? [options.orderBy].flat() : [];
  return {
    entity,
    on(db) {
      const database = typeof db === "function" ? db : () => db;
      // `any` inside the kit only: the query builder's generics do not follow a schema
      // passed as a type parameter; the public interface above is typed from the entity.
      const qb = (): any => database().em().createQueryBuilder(entity);
      // The query builder passes the driver's own error through; the entity manager would
      // convert it (`UniqueConstraintViolationException`, ...), which names no driver.
      const converted = async <T>(write: () => Promise<T>): Promise<T> => {
        try {
          return await write();
        } catch (error) {
          throw error instanceof DriverException || !(error instanceof Error) ? error : database().em().getDriver().convertException(error);
        }
      };
      const store: EntityStore<S, K> = {
        async get(id) {
          return (await qb().select(fields).where({ [key]: id }).execute("get", mapped)) ?? null;
        },
        async find(where) {
          const [row] = await store.list({ where, limit: 1 });
          return (row as EntityRow<S> | undefined) ?? null;
        },
        list(query = {}) {
          const orderBy = query.orderBy ? [query.orderBy].flat() : order;
          let q = qb().select(query.fields ? [...query.fields] : fields);
          if (query.where) q = q.where(query.where);
          if (orderBy.length > 0) q = q.orderBy(portableOrder(orderBy as Record<string, unknown>[], database().engine !== "postgresql", key));
          // SQLite refuses an OFFSET without a LIMIT, and the query builder leaves a LIMIT of
          // Infinity out: an offset alone gets the largest LIMIT instead.
          if (query.limit !== undefined || query.offset) q = q.limit(query.limit ?? Number.MAX_SAFE_INTEGER, query.offset ?? 0);
          return q.execute("all", mapped);
        },
        count(where) {
          return database().em().count(entity, (where ?? {}) as never);
        },
        async insert(values) {
          if (Array.isArray(values) && values.length === 0) return;
          await converted(() => qb().insert(values).execute("run"));
        },
        async update(id, patch) {
          const { affectedRows } = await converted<{ affectedRows: number }>(() => qb().update(patch).where({ [key]: id }).execute("run"));
          return affectedRows > 0;
        },
        async delete(id) {
          const { affectedRows } = await qb().delete().where({ [key]: id }).execute("run");
          return affectedRows > 0;
        },
        async transition(id, { from, set }) {
          const [row] = await qb().update(set).where({ $and: [from, { [key]: id }] }).returning(fields).execute("all", mapped);
          return row ?? null;
        },
        qb,
      };
      return store;
    },
  };
}
