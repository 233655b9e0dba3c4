import { registry } from '../apps/api/src/metrics/metrics.js';

/**
 * The sum of a metric's values with these labels, from the process's registry (what /metrics
 * reports; several applications in one process share it, so compare against a value read before).
 */
export async function metricValue(name: string, labels: Record<string, string> = {}): Promise<number> {
  const metric = registry.getSingleMetric(name);
  if (!metric) throw new Error(`no metric named ${name}`);
  const { values } = await metric.get();
  return values.filter((v) => Object.entries(labels).every(([key, value]) => v.labels[key] === value)).reduce((sum, v) => sum + v.value, 0);
}
