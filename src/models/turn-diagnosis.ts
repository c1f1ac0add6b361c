/**
 * How an assistant turn that came back wrong points at a server setting: a tool call written as text in
 * `content` (no tool-call parser), a turn with nothing in it (a reasoning model that spent it thinking),
 * tool-call arguments that are not JSON (a parser that mangles them). The probe (`probe.ts`) and the
 * silent-zero alarm of run summaries and reports (`model-turn-health.ts`) name the same fixes.
 */

/**
 * Markup that chat templates use for tool calls (hermes/Qwen `<tool_call>`, Qwen3-Coder `<function=…>`,
 * Llama `<|python_tag|>`, Mistral `[TOOL_CALLS]`, DeepSeek `<｜tool▁calls▁begin｜>`), and the JSON shape
 * `"name": "…", "arguments": …` that a template writes inside it. All plain alternatives or bounded
 * repeats, so the test stays linear on long text.
 */
const TOOL_CALL_MARKUP = /<tool_call|<\/tool_call>|<function=|<\|python_tag\|>|\[TOOL_CALLS\]|<\|tool_calls?_begin|<｜tool▁calls?▁begin|"name"\s*:\s*"[\w.-]{1,64}"\s*,\s*"(?:arguments|parameters)"\s*:/;
const XML_TOOL_MARKUP = /<function=|<parameter=/;

/** True when text reads like a tool call that the server left unparsed. */
export function looksLikeToolCallText(text: string): boolean {
  return TOOL_CALL_MARKUP.test(text);
}

/** True when the unparsed call uses the Qwen3-Coder XML body (`<function=…><parameter=…>`). */
export function isXmlToolCallText(text: string): boolean {
  return XML_TOOL_MARKUP.test(text);
}

/** What to change when a server returns tool calls as text. */
export const PARSER_FIXES: readonly string[] = [
  "vLLM: start it with --enable-auto-tool-choice --tool-call-parser <parser>, the parser matching the model's chat template " +
    '(hermes for Qwen2.5/Qwen3, qwen3_coder or qwen3_xml for Qwen3-Coder, llama3_json for Llama 3.x, mistral for Mistral).',
  'SGLang: start it with --tool-call-parser <parser> (e.g. qwen25, llama3, mistral).',
  'llama.cpp llama-server: start it with --jinja (and a chat template that supports tools).',
  'Ollama: use a model whose template supports tools.',
];

/** The parser fixes, led by the XML-specific one when the text uses the XML body. */
export function toolCallTextFixes(xml: boolean): string[] {
  return xml
    ? ['The text uses the <function=…><parameter=…> XML format: with vLLM use --enable-auto-tool-choice --tool-call-parser qwen3_coder (or qwen3_xml).', ...PARSER_FIXES.slice(1)]
    : [...PARSER_FIXES];
}

/** What to change when turns come back empty or with everything in the reasoning field. */
export const EMPTY_TURN_FIXES: readonly string[] = [
  'Disable thinking for the target: chat_template_kwargs {"enable_thinking": false} (SPEC option enable_thinking=false).',
  'Or raise max_tokens (SPEC option max_tokens=<n>) so the answer fits after the reasoning.',
  "Check that the server's --reasoning-parser matches the model (e.g. qwen3, deepseek_r1) and that the tool-call parser is enabled.",
];

/** What to change when tool-call arguments do not parse as JSON. */
export const BAD_ARGUMENTS_FIXES: readonly string[] = [
  'The tool-call parser mangled the arguments (parser bugs such as a dropped closing brace are known); try another --tool-call-parser for this model family or a newer server.',
  'Check that max_tokens did not cut the call short.',
];
