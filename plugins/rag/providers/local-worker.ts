// Runs the sentence encoder off the server's event loop. Loads only from `modelDir` on disk:
// remote model downloads are switched off, so a missing file fails instead of fetching.
import { parentPort, workerData } from "node:worker_threads";
import { basename, dirname } from "node:path";

interface Request {
  id: number;
  texts: string[];
}

const { modelDir } = workerData as { modelDir: string };
const ready = (async () => {
  const moduleName = "@huggingface/transformers";
  const tf = (await import(moduleName)) as {
    env: { allowRemoteModels: boolean; allowLocalModels: boolean; localModelPath: string };
    pipeline: (task: string, model: string, options: Record<string, unknown>) => Promise<(texts: string[], options: Record<string, unknown>) => Promise<{ tolist(): number[][] }>>;
  };
  tf.env.allowRemoteModels = false;
  tf.env.allowLocalModels = true;
  tf.env.localModelPath = dirname(modelDir);
  return tf.pipeline("feature-extraction", basename(modelDir), { local_files_only: true });
})();

parentPort!.on("message", async ({ id, texts }: Request) => {
  try {
    const extract = await ready;
    const out = await extract(texts, { pooling: "mean", normalize: true });
    parentPort!.postMessage({ id, vectors: out.tolist() });
  } catch (error) {
    parentPort!.postMessage({ id, error: error instanceof Error ? error.message : String(error) });
  }
});
