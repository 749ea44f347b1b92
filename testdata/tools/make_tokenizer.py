#!/usr/bin/env python3
"""Builds a small local Hugging Face tokenizer (word level, trained on a few lines of text) so
that guidellm can count and synthesise tokens offline. It is no model's tokenizer.

Usage (in the guidellm venv, which has `tokenizers` and `transformers`): make_tokenizer.py OUT_DIR
"""
import sys

from tokenizers import Tokenizer, models, pre_tokenizers, trainers
from transformers import PreTrainedTokenizerFast

TEXT = """It is a truth universally acknowledged, that a single man in possession of a good fortune,
must be in want of a wife. However little known the feelings or views of such a man may be on
his first entering a neighbourhood, this truth is so well fixed in the minds of the surrounding
families, that he is considered the rightful property of some one or other of their daughters.
the quick brown fox jumps over a lazy dog while pilots measure every token that leaves the
engine on time 0 1 2 3 4 5 6 7 8 9 . , ; : ! ? ' " ( ) - a b c d e f g h i j k l m n o p q r s t
u v w x y z""".split("\n")

out = sys.argv[1]
tok = Tokenizer(models.WordLevel(unk_token="[UNK]"))
tok.pre_tokenizer = pre_tokenizers.Whitespace()
tok.train_from_iterator(TEXT, trainers.WordLevelTrainer(special_tokens=["[UNK]", "[EOS]"]))
fast = PreTrainedTokenizerFast(tokenizer_object=tok, unk_token="[UNK]", eos_token="[EOS]")
fast.save_pretrained(out)
print("saved", out, "vocab", fast.vocab_size)
