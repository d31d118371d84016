// Which database a pod template runs, for fix texts: a database's data is single-writer, so the fix is one volume per
// replica (or one replica), never a volume shared through ReadWriteMany.
import { databaseContainer } from './databases.js';
import { podContainers } from './mounts.js';
import type { PodTemplate } from './pod-templates.js';

/** The product name of the first datastore container pvlint recognises in the template (caches excluded). */
export function databaseProductOf(template: PodTemplate): string | undefined {
  for (const container of podContainers(template, ['containers'])) {
    const db = databaseContainer(container);
    if (db && db.db.role === 'datastore') return db.db.product;
  }
  return undefined;
}
