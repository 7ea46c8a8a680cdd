// Where the common OpenAI-compatible services live, and what each needs from a browser (the Settings panel's
// provider presets; local servers by IP, as they listen on 127.0.0.1).
export interface ProviderPreset {
  id: 'openai' | 'deepseek' | 'openrouter' | 'ollama' | 'vllm';
  label: string;
  baseURL: string;
  needsKey: boolean;
  defaultModel: string;
  /** what to do when the browser's cross-origin request is refused */
  corsNote: string;
}

export const PROVIDER_PRESETS: ProviderPreset[] = [
  { id: 'openai', label: 'OpenAI', baseURL: 'https://api.openai.com/v1', needsKey: true, defaultModel: 'gpt-4o-mini', corsNote: 'OpenAI accepts browser requests.' },
  { id: 'deepseek', label: 'DeepSeek', baseURL: 'https://api.deepseek.com/v1', needsKey: true, defaultModel: 'deepseek-chat', corsNote: 'If the browser is refused, run the CLI or use a proxy.' },
  { id: 'openrouter', label: 'OpenRouter', baseURL: 'https://openrouter.ai/api/v1', needsKey: true, defaultModel: 'openai/gpt-4o-mini', corsNote: 'OpenRouter accepts browser requests.' },
  {
    id: 'ollama',
    label: 'Ollama (local)',
    baseURL: 'http://127.0.0.1:11434/v1',
    needsKey: false,
    defaultModel: 'qwen2.5-coder:7b',
    corsNote: 'Start Ollama with OLLAMA_ORIGINS set to this page\'s origin (e.g. OLLAMA_ORIGINS=http://localhost:5173 ollama serve).',
  },
  {
    id: 'vllm',
    label: 'vLLM (local)',
    baseURL: 'http://127.0.0.1:8000/v1',
    needsKey: false,
    defaultModel: 'Qwen/Qwen2.5-Coder-7B-Instruct',
    corsNote: 'Start vLLM with --allowed-origins \'["<this page\'s origin>"]\'.',
  },
];

export function providerPreset(id: string): ProviderPreset {
  const p = PROVIDER_PRESETS.find((x) => x.id === id);
  if (!p) throw new Error(`unknown provider preset "${id}": use one of ${PROVIDER_PRESETS.map((x) => x.id).join(', ')}`);
  return p;
}

/** Where an experiment model's calls go: its own baseURL, else its provider preset's. */
export function modelBaseURL(model: { provider: string; baseURL?: string | undefined }): string {
  return model.baseURL ?? providerPreset(model.provider).baseURL;
}
