// A worker thread of the import pool (ImportReplayer): replays a record and makes its rows, so
// that the event loop serving every other request never does.
import { planImport, type ImportPlanResult, type ImportTask } from './import-plan.js';

export default function importWorker(task: ImportTask): ImportPlanResult {
  return planImport(task);
}
