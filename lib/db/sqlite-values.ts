import {
  type KyselyPlugin,
  OperationNodeTransformer,
  type PluginTransformQueryArgs,
  type PluginTransformResultArgs,
  type PrimitiveValueListNode,
  type QueryResult,
  type RootOperationNode,
  type UnknownRow,
  type ValueNode,
} from 'kysely';

/**
 * SQLite has no timestamp type, and its driver binds no Date. Times are stored as ISO 8601 UTC
 * text with milliseconds (`toISOString()`, the same form as the schema's default), which sorts and
 * compares as the times do; columns named `*_at` come back as Date, as PostgreSQL gives them. Every
 * timestamp column of the schema ends in `_at` (lib/db/types.ts); a new one must too.
 */
export class SqliteValuesPlugin implements KyselyPlugin {
  readonly #dates = new DatesToText();

  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    return this.#dates.transformNode(args.node, args.queryId);
  }

  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    for (const row of args.result.rows) {
      for (const key in row) {
        const value = row[key];
        if (typeof value === 'string' && key.endsWith('_at')) row[key] = new Date(value);
      }
    }
    return args.result;
  }
}

const toText = (value: unknown): unknown => (value instanceof Date ? value.toISOString() : value);

class DatesToText extends OperationNodeTransformer {
  protected override transformValue(node: ValueNode): ValueNode {
    return node.value instanceof Date ? { ...node, value: node.value.toISOString() } : node;
  }

  protected override transformPrimitiveValueList(node: PrimitiveValueListNode): PrimitiveValueListNode {
    return node.values.some((value) => value instanceof Date) ? { ...node, values: node.values.map(toText) } : node;
  }
}
