// A page's query string as Next hands it to a page (`searchParams`: a name may come once, many
// times or not at all) or as a URL holds it. Every reader takes the first value of a repeated
// name: `?lang=en&lang=es` reads as `en`.

export type SearchParams = Record<string, string | string[] | undefined>;

/** The first value of a parameter, or undefined when it is absent. */
export function firstParam(value: string | string[] | null | undefined): string | undefined {
  return (Array.isArray(value) ? value[0] : value) ?? undefined;
}

/** The first value of `name` in a page's query or a URL's. */
export function paramOf(params: SearchParams | URLSearchParams, name: string): string | undefined {
  return params instanceof URLSearchParams ? (params.get(name) ?? undefined) : firstParam(params[name]);
}
