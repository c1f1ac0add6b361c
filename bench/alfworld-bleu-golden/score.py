"""Scores the cases of make-cases.ts with NLTK's sentence BLEU (smoothing method 4), as AgentBench does.

Usage: python3 score.py cases.json > golden.json   (needs NLTK 3.8; not used in CI)

For every case: the scores of all admissible commands (reference = command, hypothesis = the cleaned
action, whitespace tokens) and the command AgentBench's mapping would pick.
"""
import json
import sys
import warnings

import nltk
from nltk.translate.bleu_score import SmoothingFunction, sentence_bleu


def score(reference, candidate):
    return sentence_bleu([reference.split()], candidate.split(), smoothing_function=SmoothingFunction().method4)


def choose(action, choices, limit=0.01):
    action = action.strip().lower().split("\n")[0]
    if not choices or action in choices:
        return action
    scores = [score(c, action) for c in choices]
    best = max(range(len(scores)), key=lambda i: (scores[i], -i))
    return choices[best] if scores[best] > limit else action


def main():
    warnings.simplefilter("ignore")
    data = json.load(open(sys.argv[1]))
    out = []
    for case in data["cases"]:
        choices = data["lists"][case["list"]]
        cleaned = case["action"].strip().lower().split("\n")[0]
        out.append({
            "list": case["list"],
            "action": case["action"],
            "scores": [float(score(c, cleaned)) for c in choices],
            "chosen": choose(case["action"], choices),
        })
    json.dump({"nltk": nltk.__version__, "python": sys.version.split()[0], "lists": data["lists"], "cases": out}, sys.stdout, indent=None)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
