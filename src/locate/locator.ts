// What one locator is: a function from a resource's recorded origin and a JSON path to a place in the repository.
import type { JsonPath, LocateAt, Located, Origin, Resource } from '../types.js';

/** What a locator may use besides its origin record: the stage itself (origins that wrap another) and its memory. */
export interface LocateContext {
  /** Locates a path of another resource (the object a substituted or derived one came from, a values source). */
  at: LocateAt;
  /** Work a locator does once per key in this run (parsing an embedded values text). */
  remember<V>(key: object, make: () => V): V;
}

export type Locator<O extends Origin = Origin> = (origin: O, resource: Resource, path: JsonPath, context: LocateContext) => Located;
