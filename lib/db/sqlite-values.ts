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
 * SQLite has no timestamp type: times are ISO 8601 UTC text (sorting as the times do), and every
 * column named `*_at` comes back as a Date, as from PostgreSQL. A new timestamp column ends in `_at`.
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
