import { isRouteErrorResponse, type StaticHandlerContext } from 'react-router';
import { jsonForScript } from '../../contract/script-json.ts';

/** JSON of shared, frozen page data (content), serialised once per object rather than per request. */
const serialisedData = new WeakMap<object, string>();

function serialiseShared(value: unknown): string {
  if (typeof value !== 'object' || value === null || !Object.isFrozen(value)) return jsonForScript(value) ?? 'null';
  let json = serialisedData.get(value);
  if (json === undefined) {
    json = jsonForScript(value);
    serialisedData.set(value, json);
  }
  return json;
}

/** The react-router hydration data, in the format `createBrowserRouter` reads back. */
export function hydrationJson(state: StaticHandlerContext): string {
  const loaderData = Object.entries(state.loaderData)
    .filter(([, value]) => value !== undefined)
    .map(([id, value]) => `${jsonForScript(id)}:${serialiseShared(value)}`)
    .join(',');
  const errors = state.errors
    ? jsonForScript(
        Object.fromEntries(
          Object.entries(state.errors).map(([id, error]) => [
            id,
            isRouteErrorResponse(error)
              ? {
                  status: error.status,
                  statusText: error.statusText,
                  internal: (error as { internal?: boolean }).internal ?? false,
                  data: error.data as unknown,
                  __type: 'RouteErrorResponse',
                }
              : { message: 'Internal Server Error', __type: 'Error' },
          ]),
        ),
      )
    : 'null';
  return `{"loaderData":{${loaderData}},"actionData":${jsonForScript(state.actionData ?? null)},"errors":${errors}}`;
}
