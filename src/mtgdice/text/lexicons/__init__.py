"""Lexicons of the languages Magic cards are printed in: one JSON file per language.

Each file holds the words (numbers, dice, verbs) and the phrase patterns, with their English, that
``mtgdice.text.translate`` reads; the format is described there. No code lives here.
"""
