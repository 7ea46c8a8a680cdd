// A small mini-swe-agent trajectory file (format mini-swe-agent-1.1) for the import tests, in Node and in Chromium:
// two assistant messages — one bash block, then a reply without one — and a submitted patch.
export const MINI_SWE_AGENT_SAMPLE = {
  info: { exit_status: 'Submitted', submission: 'diff --git a/x b/x\n', model_stats: { instance_cost: 0.12, api_calls: 2 }, config: { model: { model_name: 'gpt-4o' } } },
  messages: [
    { role: 'system', content: 'sys' },
    { role: 'user', content: 'task' },
    { role: 'assistant', content: 'THOUGHT: look\n```bash\nls -la\n```' },
    { role: 'user', content: '<returncode>0</returncode>\n<output>\nsetup.py\n</output>' },
    { role: 'assistant', content: 'no block here' },
    { role: 'user', content: 'format error' },
  ],
  trajectory_format: 'mini-swe-agent-1.1',
};
