"""Harness-R1 reward for verl's `custom_reward_function`, served by `harness-r1 serve-reward`.

Paste into the verl command line (rows from `harness-r1 export rl --format verl`, file rows.verl.parquet):
  data.train_files=rows.verl.parquet data.prompt_key=prompt
  custom_reward_function.path=adapters/python/verl_reward.py custom_reward_function.name=compute_score
  # reward manager "naive" (default) or the Reward Loop: compute_score per sample (the loop runs sync functions
  #   in its executor; name=compute_score_async for the coroutine form)
  # reward_model.reward_manager=batch: custom_reward_function.name=compute_score_batch
Environment: HARNESS_REWARD_URL (default http://127.0.0.1:8765), see harness_reward_client.py.

The row's metadata is `extra_info["metadata"]` (canonical JSON text); `solution_str` is the engineer's completion.
Returns a dict whose `score` is the reward; the other keys (all numbers, the same keys for every sample, as
verl's reward_extra_info needs) are logged. Missing evaluation: verl cannot drop a sample from a reward function,
so it scores 0.0 with `scored` 0.0 (the missing rate is mean(1 - scored) in the logs and on the service's /metrics).
"""

from __future__ import annotations

import asyncio
import os
import sys
from typing import Any, Dict, List, Optional

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness_reward_client as client  # noqa: E402


def _verl_dict(result: Dict[str, Any]) -> Dict[str, float]:
    return {
        "score": float(result.get("reward") or 0.0),
        "delta": float(result.get("delta") or 0.0),
        "scored": 0.0 if client.is_missing(result) else 1.0,
        "valid_patch": 1.0 if result.get("status") in client.VALID_PATCH_STATUSES else 0.0,
        "cached": 1.0 if result.get("cached") else 0.0,
    }


def _metadata(extra_info: Optional[Dict[str, Any]]) -> Dict[str, Any]:
    if not isinstance(extra_info, dict) or "metadata" not in extra_info:
        raise ValueError("extra_info has no 'metadata': use rows written by `harness-r1 export rl --format verl`")
    return client.parse_metadata(extra_info["metadata"])


def compute_score(data_source: str, solution_str: str, ground_truth: str, extra_info: Optional[Dict[str, Any]] = None, **kwargs: Any) -> Dict[str, float]:
    del data_source, ground_truth, kwargs
    return _verl_dict(client.score_items([(_metadata(extra_info), solution_str)])[0])


async def compute_score_async(data_source: str, solution_str: str, ground_truth: str, extra_info: Optional[Dict[str, Any]] = None, **kwargs: Any) -> Dict[str, float]:
    return await asyncio.to_thread(compute_score, data_source, solution_str, ground_truth, extra_info, **kwargs)


def compute_score_batch(data_sources: List[str], solution_strs: List[str], ground_truths: List[str], extra_infos: List[Dict[str, Any]], **kwargs: Any) -> List[Dict[str, float]]:
    del data_sources, ground_truths, kwargs
    results = client.score_items([(_metadata(e), s) for e, s in zip(extra_infos, solution_strs)])
    return [_verl_dict(r) for r in results]
