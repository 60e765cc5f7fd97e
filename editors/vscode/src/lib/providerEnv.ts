// The environment of the server process: provider settings as goose's variables, and an API key an older
// version kept in SecretStorage (Set API Key now stores keys where goose keeps them: lib/storeSecret.ts).

/** apiKeyVariable is the variable goose reads a provider's key from ("" when it needs none). */
export function apiKeyVariable(provider: string): string {
  const p = provider.trim().toLowerCase();
  const known: Record<string, string> = {
    openai: "OPENAI_API_KEY",
    anthropic: "ANTHROPIC_API_KEY",
    openrouter: "OPENROUTER_API_KEY",
    google: "GOOGLE_API_KEY",
    groq: "GROQ_API_KEY",
    xai: "XAI_API_KEY",
    azure_openai: "AZURE_OPENAI_API_KEY",
    litellm: "LITELLM_API_KEY",
    ollama: "",
    // goose 1.38's declarative providers whose key variable is not NAME_API_KEY
    alibaba: "DASHSCOPE_API_KEY",
    atomic_chat: "",
    custom_deepseek: "DEEPSEEK_API_KEY",
    custom_tensorix: "TENSORIX_API_KEY",
    opencode_go: "OPENCODE_API_KEY",
    saladcloud: "SALAD_CLOUD_API_KEY",
    scaleway: "SCW_SECRET_KEY",
    vercel_ai_gateway: "AI_GATEWAY_API_KEY",
    zai: "ZHIPU_API_KEY",
  };
  if (p in known) return known[p];
  return p === "" ? "" : `${p.toUpperCase().replace(/[^A-Z0-9]/g, "_")}_API_KEY`;
}

export interface ProviderSettings {
  provider: string;
  model: string;
  mode: string;
}

/** serverEnv adds goose's variables to the inherited environment; empty settings leave goose's own config. */
export function serverEnv(base: NodeJS.ProcessEnv, s: ProviderSettings, apiKey: string | undefined): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...base };
  if (s.provider) env.GOOSE_PROVIDER = s.provider;
  if (s.model) env.GOOSE_MODEL = s.model;
  if (s.mode) env.GOOSE_MODE = s.mode;
  const provider = s.provider || base.GOOSE_PROVIDER || "";
  const variable = apiKeyVariable(provider);
  if (apiKey && variable) env[variable] = apiKey;
  return env;
}
