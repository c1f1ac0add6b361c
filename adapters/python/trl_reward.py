"""Harness-R1 reward for TRL's GRPOTrainer (`reward_funcs`), served by `harness-r1 serve-reward`.

Paste into the training script (rows from `harness-r1 export rl --format trl`, file rows.trl.jsonl):
  import sys; sys.path.insert(0, "adapters/python")
  from datasets import load_dataset
  from trl import GRPOConfig, GRPOTrainer
  from trl_reward import harness_r1_reward
  dataset = load_dataset("json", data_files="rows.trl.jsonl", split="train")
  trainer = GRPOTrainer(model=..., reward_funcs=[harness_r1_reward], args=GRPOConfig(...), train_dataset=dataset)
Environment: HARNESS_REWARD_URL (default http://127.0.0.1:8765), see harness_reward_client.py.

GRPOTrainer calls it with prompts, completions, completion_ids and every dataset column but `prompt` as keyword
lists; the row's metadata is the `harness_r1_metadata` column (canonical JSON text). Completions are text or, for
conversational rows, a list of messages (the last message's content is the completion). Returns one float per
completion; a missing evaluation is None, which GRPOTrainer treats as "no reward for this completion" (it is left
out of its group's baseline and gets no advantage).
"""

from __future__ import annotations

import os
import sys
from typing import Any, List, Optional

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness_reward_client as client  # noqa: E402


def _text(completion: Any) -> str:
    if isinstance(completion, str):
        return completion
    if isinstance(completion, list) and completion and isinstance(completion[-1], dict):
        content = completion[-1].get("content")
        if isinstance(content, list):  # content parts
            return "".join(str(part.get("text", "")) for part in content if isinstance(part, dict))
        return str(content or "")
    raise ValueError(f"unexpected completion type {type(completion).__name__}")


def harness_r1_reward(prompts: List[Any], completions: List[Any], harness_r1_metadata: Optional[List[str]] = None, log_extra: Any = None, log_metric: Any = None, **kwargs: Any) -> List[Optional[float]]:
    del prompts, kwargs
    if harness_r1_metadata is None:
        raise ValueError("no harness_r1_metadata column: use rows written by `harness-r1 export rl --format trl`")
    results = client.score_items([(client.parse_metadata(m), _text(c)) for m, c in zip(harness_r1_metadata, completions)])
    if log_extra:
        log_extra("harness_r1_status", [str(r.get("status")) for r in results])
    if log_metric and results:
        log_metric("harness_r1/missing_evaluation_rate", sum(client.is_missing(r) for r in results) / len(results))
    return [None if client.is_missing(r) else float(r.get("reward") or 0.0) for r in results]
