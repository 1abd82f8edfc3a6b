type Schema = {
    type?: string | string[];
    properties?: Record<string, Schema>;
    required?: string[];
    items?: Schema;
    enum?: unknown[];
    const?: unknown;
    anyOf?: Schema[];
    oneOf?: Schema[];
    minimum?: number;
    maximum?: number;
    minLength?: number;
    maxLength?: number;
    pattern?: string;
};
/** The first problem of `value` against `schema`, as "path: problem", or undefined. */
export declare function problemOf(value: unknown, schema: Schema, path: string): string | undefined;
/** Throws an ArgumentError naming the first problem of `value`. */
export declare function checkArgument(operation: string, value: unknown, schema: unknown): void;
export {};
