"""The grammar of dice on cards: the phrases, each a small regular expression with one meaning.

The compiler (``compiler.py``) reads each sentence of an ability through these phrases. They work on
the matching form of the text (``normalize.for_matching``): lower case, number words as digits,
em dashes, the card's own name as ``~``. Every phrase is a piece of the dice language, never a
card's sentence: "roll <count> <die>", "<range> | <effect>", "whenever you roll <what>, <effect>",
"if you would roll <dice>, instead roll <how>", and so on.
"""

from __future__ import annotations

import re

# -- words ------------------------------------------------------------------------------------

COUNT = r"(?:a|an|\d+|x|that many)"
"""How many dice: "a", "2", "x" ("roll X d6")."""

DIE = r"(?:d\d+s?|\d+-sided (?:dice|die)|(?:the )?planar die|dice|die)"
"""A kind of die: "d20", "d20s", "6-sided die", "6-sided dice", "the planar die", "die"."""

DICE_WORD = re.compile(
    r"\b(?:dice|die|d\d+s?|\d+-sided|re-?roll(?:s|ed|ing)?|roll(?:s|ed|ing)?)\b|\{chaos\}|\{pw\}|chaos ensues"
)
"""Any mention of dice: the independent test for "this sentence is about dice"."""

NUMBER = r"\d+"

# -- results tables (CR 706.3a) ---------------------------------------------------------------

TABLE_ROW = re.compile(r"^\s*(?P<low>\d+)\s*(?:\u2014\s*(?P<high>\d+)|(?P<open>\+))?\s*\|\s*(?P<text>.*)$")
"""A chart row: "1—9 | effect", "20 | effect", "15+ | effect" (dashes already made em dashes)."""

LIST_ROW = re.compile(
    r"^\s*(?:\u2022\s*)?(?P<low>\d+)(?:\s*(?:\u2014|to)\s*(?P<high>\d+)|\s+or\s+(?P<alt>\d+)|(?P<open>\+))?"
    r"\s+\u2014\s+(?P<text>.+)$"
)
"""A list item: "5 — Destroy it.", "1 or 2 — ...", "• 2 — menace", "1-3 - ..." after dash folding."""

LEVEL_LINE = re.compile(r"^(?:\{[^}]*\})+:\s*level\s+(?P<level>\d+)\s*$")
"""A Class card's level-up line: "{1}{R}: Level 2"."""

ABILITY_WORD = re.compile(r"^(?P<word>[a-z0-9'][a-z0-9' ,!-]{0,44}?) \u2014 (?P<rest>\S.*)$")
"""An ability word or flavor word before an em dash: "psionic spells — when ..."."""

COST_SPLIT = re.compile(r"^(?P<cost>(?:\[[^\]]*\]|[^:\"\[]){1,160}?):\s+(?P<body>.+)$")
"""An activated ability's cost and effect: "{2}, {t}: roll a d20." or "[0]: roll a 6-sided die."."""

COST_HINT = re.compile(r"\{|^\[|\b(?:sacrifice|tap|untap|remove|exile|discard|pay|uninstall|return|reveal|roll)\b")

# -- roll instructions (CR 706.1) -------------------------------------------------------------

ROLL = re.compile(
    r"(?P<subject>\b(?:each player|each opponent|that player|target player|target opponent|they|you|~)\s+)?"
    r"\b(?P<verb>rolls?)\s+(?P<count>" + COUNT + r")\s+(?P<die>" + DIE + r")(?P<tail>[^.]*)"
)
PLANAR_ROLL = re.compile(r"\b(?P<verb>rolls?) (?:the|a) planar die(?P<tail>[^.]*)")
NUMBER_OF_DICE = re.compile(
    r"\b(?P<verb>rolls?) a number of (?P<die>" + DIE + r") equal to (?P<what>[^,.]+?)(?P<tail>(?:,| and )[^.]*|$)"
)
VISIT_ROLL = re.compile(r"\broll to visit (?:your|their) attractions\b")
IMPLICIT_ROLL = re.compile(r"\bthe result of (?P<count>a|an|\d+) (?P<die>" + DIE + r") rolls?\b(?P<tail>[^.]*)")
REROLL_STORED = re.compile(r"\breroll (?P<how>any number of|up to \d+ of|1 of|all of|each of)? ?~'s stored results")

TAIL_TWICE = re.compile(r"^ twice\b")
TAIL_FOR_EACH = re.compile(r"^ for each (?P<what>[^,.]+?)(?= and |,|$)")
TAIL_PLUS_EACH = re.compile(r"^ plus an additional (?P<die>" + DIE + r") for each (?P<what>[^,.]+?)(?= and |,|$)")
TAIL_WHERE_X = re.compile(r",? where x is (?P<what>[^,.]+?)(?= and |,|$)")
TAIL_IGNORE = re.compile(
    r"\band ignore (?:the (?P<n>\d+ )?(?:lower|lowest)(?: (?P<n2>\d+))? (?:roll|rolls|result|results|dice)"
    r"|all but the (?P<keep>\d+ )?highest (?:roll|rolls|result|results))"
)
TAIL_CHOOSE = re.compile(r"\band choose (?:1|one) (?:result|of (?:those|the) results)")
TAIL_ADD = re.compile(r"\band (?P<verb>add|subtract) (?P<what>[^,.]+?)(?= to | from |,|$| and )")
TAIL_STORE = re.compile(r"\band (?:store|install) (?:those|the|that|its) results? on (?:~|it|them)\b")
TAIL_TOTAL = re.compile(
    r"\band (?:use|add) the total(?: of (?:those|the|their) (?:results|rolls|dice))?(?=$|[,.]| and )"
)

# -- sentences that follow a roll (CR 706.3b, 706.4) -------------------------------------------

REPEAT = re.compile(
    r"^if (?:you roll|the result is|the roll is|it's) (?P<cond>[^,]+), (?P<may>you may )?repeat this process"
)
CONDITIONAL = re.compile(
    r"^(?:if (?:you (?:a )?roll(?:ed)?|the (?:result|roll) (?:is|was)|the result of (?:that|the) roll is|"
    r"it's|it is|that player rolls?|they roll|the total is|the total of those results is)|on) "
    r"(?P<cond>(?:[^,]|,(?= (?:or )?(?:a |an )?\d))+), (?P<text>.+)$"
)
DOUBLES = re.compile(r"^if (?:you|they|that player|he or she|a player) roll(?:ed)? doubles\b,? (?P<text>.*)$")
EXACTLY = re.compile(r"^if you rolled (?P<value>\d+) exactly (?P<times>\d+) times?, (?P<text>.+)$")
FOR_EACH = re.compile(
    r"^for each (?P<what>die|(?:other |odd |even |different )?results?(?: of (?P<value>\d+))?|"
    r"result (?:of|that is) [^,]+), (?P<text>.+)$"
)
OTHERWISE = re.compile(r"^otherwise, (?P<text>.+)$")
REROLL_TIES = re.compile(r"^(?:reroll|roll again) to break ties\b")
STANDING = re.compile(
    r"\bthe (?:player|players|opponent|opponents) with the (?P<extreme>lowest|highest) (?:result|roll|total)\b"
)
"""Players' results compared: "the player with the lowest result" (when each player rolls)."""
WHO_HAD = re.compile(
    r"^if (?P<who>1 or more opponents|an opponent|you) (?:had|rolled|got) the (?P<extreme>highest|lowest) "
    r"(?:result|roll|total)(?: or tied for (?:it|the (?:highest|lowest)(?: result)?))?, (?P<text>.+)$"
)
"""An outcome on who had the lowest or highest result: "if one or more opponents had the highest result, ..."."""
INDICATED = re.compile(r"\b(?:the indicated|for each (?:other )?result)\b")

CONDITION_WORDS = re.compile(
    r"^(?:a |an )?(?:natural )?(?P<low>\d+)(?: or (?:(?P<up>higher|greater|more)|(?P<down>lower|less|fewer)))?"
    r"(?P<alts>(?:,? or (?:a |an )?\d+|, (?:a |an )?\d+)*)$"
)

# -- effects on other rolls ---------------------------------------------------------------------

REPLACEMENT = re.compile(
    r"(?:^|, |the next time )(?:if )?(?P<who>you|a player|an opponent|each player) would roll (?P<what>[^,]+?)"
    r"(?: this turn)?, (?:(?:instead )?(?:they|you|that player) )?(?P<may>may )?(?:instead )?(?:rolls? )?(?P<how>.+)$"
)
HOW_EXTRA_LOWEST = re.compile(
    r"^(?:instead )?(?:roll )?that many (?:dice|of those dice|\S+ dice) plus (?P<extra>\d+|a|an)(?: instead)? "
    r"and ignores? the (?:(?P<n>\d+) )?lowest(?: (?:roll|rolls|result|results|die|dice))?\b"
)
HOW_EXTRA_CHOSEN = re.compile(
    r"^(?:instead )?(?:roll )?that many (?:dice|of those dice|\S+ dice) plus (?P<extra>\d+|a|an)(?: instead)? and "
    r"(?:(?P<chooser>an opponent|target opponent|another player|that player's opponent) chooses (?:\d+|a|one) "
    r"(?:of them |of those results )?to ignore|ignores? (?P<n>\d+)(?: of (?:them|those (?:dice|results|rolls)))?)\b"
)
HOW_PAIR = re.compile(
    r"^(?:instead )?(?:roll )?(?P<n>\d+) of (?:those|that) (?:dice|die) and ignore (?P<ignore>\d+) of "
    r"(?:those|the) (?:results|rolls|dice)\b"
)
HOW_MORE_OF_THEM = re.compile(
    r"^(?:instead )?(?:roll )?(?P<n>\d+) (?P<die>" + DIE + r")(?: instead)? and ignore the (?:lower|lowest)"
    r"(?: (?P<k>\d+))? (?:roll|rolls|result|results)\b"
)
"""Roll one die as several and keep the best: "instead roll two d20s and ignore the lower roll"."""
HOW_EXCHANGE = re.compile(r"^(?:instead )?(?:roll )?them and you may exchange\b")
HOW_TOTAL = re.compile(r"^(?:instead )?(?:roll )?(?P<n>\d+) (?P<die>" + DIE + r") and use the total\b")

STATIC_MODIFIER = re.compile(
    r"^(?P<verb>increase|decrease) the results? of each (?P<die>die|"
    + DIE
    + r") (?P<who>you roll|rolled|a player rolls|each player rolls) by (?P<n>\d+)\b"
)
AFTER_ROLL = re.compile(
    r"^after (?P<who>you|a player) rolls? (?:a|an|1 or more) (?P<die>" + DIE + r"), you may (?P<cost>.+)$"
)
IF_YOU_DO = re.compile(
    r"^if you do, (?P<verb>increase or decrease|decrease or increase|increase|decrease) "
    r"(?:the|that) result by (?P<n>\d+)\b"
)
ONCE_EACH_TURN = re.compile(r"^do this only once each turn\b|^activate only once each turn\b")

REROLL_IF = re.compile(
    r"^if you roll (?P<cond>[^,]+?)(?: on (?:a|an) (?P<die>" + DIE + r"))?, you may reroll (?:that die|it|that roll)\b"
)
REROLL_BY_COST = re.compile(
    r"^(?P<once>once each turn, )?you may (?P<cost>.+?) to (?:have (?P<who>any player|target player|that player) )?"
    r"reroll (?P<what>1 or more dice you rolled|any number of dice you rolled|a die (?:you|that player) rolled|"
    r"any die|a die)\b"
)
REROLL_ACTIVATED = re.compile(
    r"^(?P<coin>reflip (?:any|a|target) coin(?: or |$))?"
    r"(?:reroll (?P<what>any die|a die|target die|any number of dice)\b)?"
)
"""An activated reroll or reflip: "reroll any die", "reflip any coin or reroll any die" (both halves)."""
COIN_REPLACEMENT = re.compile(
    r"^(?:if )?(?P<who>you|a player|an opponent) would flip a coin, instead flip (?P<n>\d+) coins and ignore "
    r"(?P<ignore>\d+)(?: of them)?$"
)
"""A partner-coin replacement (CR 705 with CR 616): "if you would flip a coin, instead flip 2 coins and ignore 1"."""

TRIGGER = re.compile(
    r"^(?P<when>whenever|when) (?P<who>you|a player|an opponent|each player|another player) rolls? "
    r"(?P<what>[^,]+), (?P<effect>.+)$"
)
TRIGGER_PASSIVE_VOICE = re.compile(
    r"^(?P<when>whenever|when) (?:a|an) (?P<value>\d+) is rolled(?: on (?:a|an) (?P<die>"
    + DIE
    + r"))?, (?P<effect>.+)$"
)
CHAOS_ENSUES = re.compile(r"^whenever chaos ensues, (?P<effect>.+)$")
WHAT_BATCH = re.compile(r"^(?:1 or more dice|dice|1 or more " + DIE + r")$")
WHILE_VISITING = re.compile(r"\s+while rolling to visit (?:your|their) attractions$")
WHAT_SUFFIX = re.compile(r"\s+on (?:a|an|any) (?P<die>" + DIE + r")$")
FACE_COUNTS_AS = re.compile(
    r"\beach (?P<face>blank|chaos|planeswalk|\{chaos\}|\{planeswalker\}) roll of the planar die is (?:a|an) "
    r"(?P<as>blank|chaos|planeswalk|\{chaos\}|\{planeswalker\}) roll\b"
)

PROTECTION = re.compile(r"\bprotection from (?:die rolls|dice)\b")
ROLLED_THIS_TURN = re.compile(
    r"\b(?:if|as long as) (?:you|a player)(?:'ve| have| has)? rolled (?:a die|dice|\d+ or (?:more|fewer) dice|"
    r"\d+ dice|1 or more dice) this turn\b"
)
UNTIL_ROLL = re.compile(
    r"\buntil (?:you|a player|that player) rolls? (?P<cond>[^,.]+?)"
    r"(?: while rolling to visit (?:your|their) attractions)?(?=$|[,.])"
)
STACK_DICE = re.compile(r"\bstack (?:\d+|a) (?:dice|die)\b|\beach die in its stack\b|\bthe stack falls\b")
USE_STORED = re.compile(r"\byou may uninstall a result from ~ to use it for a die you rolled\b")
UNINSTALL = re.compile(r"\buninstall all results from ~")
