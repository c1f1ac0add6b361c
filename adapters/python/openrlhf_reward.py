"""Harness-R1 reward for OpenRLHF's `reward_func(queries, prompts, labels)` file, served by `harness-r1 serve-reward`.

Paste into the train_ppo_ray command (rows from `harness-r1 export rl --format openrlhf`, file rows.openrlhf.jsonl):
  --data.prompt_dataset rows.openrlhf.jsonl --data.input_key prompt --data.label_key label --data.apply_chat_template
  --reward.remote_url adapters/python/openrlhf_reward.py
  (older releases spell these --prompt_data, --input_key, --label_key, --apply_chat_template, --remote_rm_url)
Without Python, --reward.remote_url http://HOST:8765/openrlhf/reward uses the service's remote-RM endpoint; it
answers only when the rerun is done, and OpenRLHF's HTTP client gives up after 180 s and 5 tries, so prefer this
file when a rerun can take longer.
Environment: HARNESS_REWARD_URL (default http://127.0.0.1:8765), see harness_reward_client.py.

`labels` are the rows' metadata as JSON text; a query is the templated prompt followed by the completion (the
completion is what follows the prompt, end-of-turn tokens removed). Returns {"rewards", "scores", "extra_logs"}:
torch tensors when torch is importable (as OpenRLHF's examples return), plain lists otherwise.
Missing evaluation: reward 0.0 (OpenRLHF needs a number) and score NaN, so with --algo.dynamic_filtering_enable
the sample's group falls outside every filtering range and is dropped; extra_logs counts them.
"""

from __future__ import annotations

import os
import sys
from typing import Any, Dict, List

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness_reward_client as client  # noqa: E402

END_TOKENS = ("<|im_end|>", "<|endoftext|>", "<|eot_id|>", "<|end|>", "</s>")


def _completion(query: str, prompt: str) -> str:
    text = query[len(prompt):] if prompt and query.startswith(prompt) else query
    stripped = True
    while stripped:
        stripped = False
        text = text.rstrip()
        for token in END_TOKENS:
            if text.endswith(token):
                text, stripped = text[: -len(token)], True
    return text


def _as_output(values: List[float]) -> Any:
    try:
        import torch  # present wherever OpenRLHF runs; optional here

        return torch.tensor(values, dtype=torch.float)
    except ImportError:
        return values


def reward_func(queries: List[str], prompts: List[str], labels: List[str], **kwargs: Any) -> Dict[str, Any]:
    del kwargs
    results = client.score_items([(client.parse_metadata(l), _completion(q, p)) for q, p, l in zip(queries, prompts, labels)])
    rewards = [float(r.get("reward") or 0.0) for r in results]
    scores = [float("nan") if client.is_missing(r) else x for r, x in zip(results, rewards)]
    n = max(1, len(results))
    extra_logs = {"harness_r1_missing_evaluation": sum(client.is_missing(r) for r in results) / n,
                  "harness_r1_cached": sum(bool(r.get("cached")) for r in results) / n}
    return {"rewards": _as_output(rewards), "scores": _as_output(scores), "extra_logs": extra_logs}
