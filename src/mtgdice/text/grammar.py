"""The grammar of dice on cards: the dice language, as named phrases composed of smaller ones.

The compiler (``compiler.py``) reads each sentence of an ability through these phrases, on the
matching form of the text (``normalize.for_matching``: lower case, number words as digits, every
dash an em dash, the card's own name or "this creature" as ``~``). A phrase is a wording family of
the language, never one card's sentence: a test runs every phrase over the dev cards and asks three
synthetic texts of any phrase that only one card uses (``tests/test_grammar_rules.py``).

The language, from its words up (``⟨NAME⟩`` is a phrase of this module)::

    count     := a | an | N | x | that many                                  COUNT
    die       := dN | N-sided die | the planar die | dice (no size: refused)  SIZED_DIE, DIE
    who       := you | a player | any player | an opponent | each player ...  WHO
    condition := [a] [natural] N [or higher | or lower] | a N, M, or K
                 | a die's highest natural result | {CHAOS} | blank ...      CONDITION, CONDITION_WORDS
    roll      := [who] roll(s) count die (and count die)* tail*               ROLL, TAIL_ALSO
               | roll a number of die equal to amount tail*                   NUMBER_OF_DICE
               | roll the planar die | roll to visit your Attractions          PLANAR_ROLL, VISIT_ROLL
               | reroll ... stored results                                    REROLL_STORED
    tail      := twice | for each amount | plus an additional die for each amount
               | and ignore the [N] lowest rolls | and ignore all but the highest N rolls
               | and choose one result | and add|subtract amount | and store those results on ~
               | , where X is amount                                          TAIL_*
    table     := row+ (on their own lines or one line)                        TABLE_ROW, LIST_ROW, ROW_BREAK
    row       := N | N—M | N+ (| or —) text [roll again | repeat this process N more times]   ROW_AGAIN
    outcome   := if the result is condition, ... | if you rolled doubles, ... | otherwise, ...
               | for each result [of N], ... | if you rolled N exactly K times, ...
               | the player with the lowest|highest result ... | reroll ties    CONDITIONAL, DOUBLES, ...
    repeat    := if you roll condition, [you may] repeat this process          REPEAT
    replacement := if who would roll dice, instead roll that many dice plus N and ignore the lowest
               | ... and ignore N | ... an opponent chooses N to ignore | two of those dice, ignore one
               | roll them and <then> | N dice and use the total              REPLACEMENT, HOW_*
    modifier  := increase|decrease the result of each die who rolls by N     STATIC_MODIFIER
               | after who rolls a die, you may cost. if you do, increase or decrease the result by N
               | you may cost to increase the result of a die who rolled by N AFTER_ROLL, IF_YOU_DO, COSTED_MODIFIER
    reroll    := if you roll condition [on a die], you may reroll that die     REROLL_IF
               | [once each turn,] you may cost to [have who] reroll dice    REROLL_BY_COST
               | cost: reflip any coin [or] reroll any die                    REROLL_ACTIVATED
    trigger   := whenever who roll(s) what, [if its result is condition,] effect
               | whenever a N is rolled, ... | whenever chaos ensues, ...     TRIGGER, INTERVENING_IF, ...
    what      := a die | one or more dice | condition [on a die] | doubles | your Nth die each turn
               | the planar die | to visit your Attractions                   NTH_DIE, WHAT_BATCH, ...
    coins     := if who would flip a coin, instead flip N coins and ignore N-1 (CR 705)   COIN_REPLACEMENT
    face      := each <face> roll of the planar die counts as a <face> roll   FACE_COUNTS_AS
    stored    := store|install the result on ~ | use a stored result for a die   STORE_SENTENCE, USE_STORED
    recognised (not applied): protection from dice, rolled this turn, until a roll, stacked dice

A wording family is a new phrase here, built from the ones above; the canonical renderer
(``canonical.py``) writes one wording of each, and the round trip checks that it reads back.
"""

from __future__ import annotations

import re

# -- words ------------------------------------------------------------------------------------

COUNT = r"(?:a|an|\d+|x|that many)"
"""How many dice: "a", "2", "x" ("roll X d6")."""

SIZED_DIE = r"(?:d\d+s?|\d+-sided (?:dice|die))"
"""A die with its number of sides: "d20", "d20s", "6-sided die", "6-sided dice"."""

DIE = r"(?:" + SIZED_DIE + r"|(?:the )?planar die|dice|die)"
"""A kind of die: a sized die, "the planar die", or "dice"/"die" with no size (the context gives it)."""

WHO = (
    r"(?:you|a player|any player|an opponent|each opponent|each player|another player|that player|"
    r"target player|target opponent)"
)
"""Whose roll: "you", "a player", "any player", "an opponent", ... (``compiler._scope`` reads it)."""

FACE = r"(?:blank|chaos|planeswalk|planeswalker|\{chaos\}|\{planeswalker\}|\{pw\})"
"""A face of the planar die (CR 901.9): blank, {CHAOS}, {PLANESWALKER}."""

DICE_WORD = re.compile(
    r"\b(?:dice|die|d\d+s?|\d+-sided|re-?roll(?:s|ed|ing)?|roll(?:s|ed|ing)?)\b|\{chaos\}|\{pw\}|chaos ensues"
)
"""Any mention of dice: the independent test for "this sentence is about dice"."""

NUMBER = r"\d+"

CONDITION = r"(?:[^,]|,(?= (?:or )?(?:a |an )?\d))+"
"""The words of a condition on a result, up to the comma that ends it: a comma inside a list of
values ("a 1, 2, or 3") does not end it. ``compiler.parse_condition`` reads the words."""

ROLL_WORD = re.compile(r"\b(?:re-?)?roll(?:s|ed|ing)?\b")
USES_RESULT = re.compile(r"\bresults?\b|\bthat much\b|\bthe total\b|\bthe difference\b|\bdice\b|\bdie\b")
"""A sentence that uses the dice just rolled."""
CONDITION_HEAD = re.compile(r"^(?:whenever|when|after|if)\b[^,]*$")
"""Inside a trigger or "if" condition (a roll named there is not rolled)."""

# -- results tables (CR 706.3a) ---------------------------------------------------------------

TABLE_ROW = re.compile(r"^\s*(?P<low>\d+)\s*(?:\u2014\s*(?P<high>\d+)|(?P<open>\+))?\s*\|\s*(?P<text>.*)$")
"""A chart row: "1—9 | effect", "20 | effect", "15+ | effect" (dashes already made em dashes)."""

ROW_BREAK = re.compile(r"(?<=[.!)])[ \t]+(?=\d+\s*(?:[\u2014-]\s*\d+\s*|\+\s*)?\|)")
"""Where a chart row starts after an earlier one on the same line (a sentence end, then "N—M |")."""

LIST_ROW = re.compile(
    r"^\s*(?:\u2022\s*)?(?P<low>\d+)(?:\s*(?:\u2014|to)\s*(?P<high>\d+)|\s+or\s+(?P<alt>\d+)|(?P<open>\+))?"
    r"\s+\u2014\s+(?P<text>.+)$"
)
"""A list item: "5 — Destroy it.", "1 or 2 — ...", "• 2 — menace", "1-3 - ..." after dash folding."""

ROW_AGAIN = re.compile(r"\b(?P<may>you may )?(?:roll again|repeat this process)(?: (?P<times>\d+) (?:more )?times)?\b")
"""A row that rolls again (CR 706.3c): "roll again", "you may repeat this process", "... 2 more times"."""

LEVEL_LINE = re.compile(r"^(?:\{[^}]*\})+:\s*level\s+(?P<level>\d+)\s*$")
"""A Class card's level-up line: "{1}{R}: Level 2"."""

ABILITY_WORD = re.compile(r"^(?P<word>[a-z0-9'][a-z0-9' ,!-]{0,44}?) \u2014 (?P<rest>\S.*)$")
"""An ability word or flavor word before an em dash: "psionic spells — when ..."."""

COST_SPLIT = re.compile(r"^(?P<cost>(?:\[[^\]]*\]|[^:\"\[]){1,160}?):\s+(?P<body>.+)$")
"""An activated ability's cost and effect: "{2}, {t}: <effect>" or a loyalty ability "[0]: <effect>"."""

COST_COUNTER = re.compile(r"remove (?:a|an|1|one) (?P<kind>[^ ]+) counter")
COST_TAP = re.compile(r"\btap\b|\{t\}")
COST_HINT = re.compile(r"\{|^\[|\b(?:sacrifice|tap|untap|remove|exile|discard|pay|uninstall|return|reveal|roll)\b")

# -- roll instructions (CR 706.1) -------------------------------------------------------------

ROLL = re.compile(
    r"(?P<subject>\b(?:each player|each opponent|that player|target player|target opponent|they|you|~)\s+)?"
    r"\b(?P<verb>rolls?)\s+(?P<count>" + COUNT + r")\s+(?P<die>" + DIE + r")(?P<tail>[^.]*)"
)
PLANAR_ROLL = re.compile(r"\b(?P<verb>rolls?) (?:the|a) planar die(?P<tail>[^.]*)")
_TAIL_END = r"(?= and (?:add|subtract|ignore|choose|store|install|use)\b|,|$)"
"""Where a noun phrase inside a roll's tail ends: at the next tail of the roll, a comma or the end."""
NUMBER_OF_DICE = re.compile(
    r"\b(?P<verb>rolls?) a number of (?P<die>" + DIE + r") equal to (?P<what>[^,.]+?)" + _TAIL_END + r"(?P<tail>[^.]*)"
)
VISIT_ROLL = re.compile(r"\broll to visit (?:your|their) attractions\b")
IMPLICIT_ROLL = re.compile(r"\bthe result of (?P<count>a|an|\d+) (?P<die>" + DIE + r") rolls?\b(?P<tail>[^.]*)")
REROLL_STORED = re.compile(
    r"\breroll (?P<how>any number of|up to \d+ of|1 of|all of|each of|all|each)? ?(?:~'s|its|the|those) "
    r"(?:stored|installed) results"
)
"""Rerolling results stored on the permanent (CR 706.8b): "reroll any number of its stored results"."""

# A roll's tails, read one after another from where the dice end (``compiler._read_tail``); what
# no tail reads is the rest of the sentence. No tail is anchored with "^": each is tried at a position.
TAIL_TWICE = re.compile(r" twice\b")
TAIL_ALSO = re.compile(r"(?:,| and|, and| plus) (?P<count>a|an|\d+) (?P<die>" + SIZED_DIE + r")(?=$|[ ,])")
"""More dice of another kind in the same roll: " and a d6" after "roll a d20"."""
TAIL_FOR_EACH = re.compile(r" for each (?P<what>[^,.]+?)" + _TAIL_END)
TAIL_PLUS_EACH = re.compile(r" plus an additional (?P<die>" + DIE + r") for each (?P<what>[^,.]+?)" + _TAIL_END)
TAIL_IGNORE = re.compile(
    r" and ignore (?:the (?P<n>\d+ )?(?:lower|lowest)(?: (?P<n2>\d+))? (?:rolls?|results?|dice|die)\b"
    r"|all but the (?P<keep>\d+ )?highest(?: (?P<keep2>\d+))? (?:rolls?|results?|dice|die)\b)"
)
TAIL_KEEP = re.compile(r" and keep the (?:(?P<keep>\d+) )?highest(?: (?P<keep2>\d+))? (?:rolls?|results?|dice|die)\b")
"""Keep the highest N (the same as ignoring all but the highest N)."""
TAIL_CHOOSE = re.compile(r" and choose (?:1|one) (?:result|of (?:those|the) results)")
TAIL_TOTAL = re.compile(
    r" and (?:use|add) the total(?: of (?:those|the|their) (?:results|rolls|dice))?(?=$|[,.]| and )"
)
TAIL_ADD = re.compile(
    r" and (?P<verb>add|subtract) (?P<what>[^,.]+?)(?: (?:to|from) (?:the|that|its) (?:result|roll|total))?"
    r"(?=,|$| and )"
)
TAIL_STORE = re.compile(r" and (?:store|install) (?:those|the|that|its) results? on (?:~|it|them)(?!\w)")
ROLL_TAILS = (
    "TAIL_ALSO",
    "TAIL_TWICE",
    "TAIL_FOR_EACH",
    "TAIL_PLUS_EACH",
    "TAIL_IGNORE",
    "TAIL_KEEP",
    "TAIL_CHOOSE",
    "TAIL_TOTAL",
    "TAIL_ADD",
    "TAIL_STORE",
)
"""The names of the tails, in the order they are tried at each position (the total before "add")."""
TAIL_WHERE_X = re.compile(r",? where x is (?P<what>[^.]+?)$")
"""The amount X names, at the end of the sentence (its noun phrase keeps every clause)."""

# -- sentences that follow a roll (CR 706.3b, 706.4) -------------------------------------------

REPEAT = re.compile(
    r"^if (?:you roll|the result is|the roll is|it's) (?P<cond>"
    + CONDITION
    + r"), (?P<may>you may )?repeat this process"
)
CONDITIONAL = re.compile(
    r"^(?:if (?:you (?:a )?roll(?:ed)?|the (?:result|roll) (?:is|was)|the result of (?:that|the) roll is|"
    r"it's|it is|that player rolls?|they roll|the total(?: of (?:those|the|their) (?:results|rolls|dice))? is)|on) "
    r"(?P<cond>" + CONDITION + r"), (?P<text>.+)$"
)
DOUBLES = re.compile(r"^if (?:you|they|that player|he or she|a player) roll(?:ed)? doubles\b,? (?P<text>.*)$")
EXACTLY = re.compile(r"^if you rolled (?P<value>\d+) exactly (?P<times>\d+) times?, (?P<text>.+)$")
FOR_EACH = re.compile(
    r"^for each (?P<what>die|(?:other |odd |even |different )?results?(?: of (?P<value>\d+))?|"
    r"result (?:of|that is) [^,]+), (?P<text>.+)$"
)
OTHERWISE = re.compile(r"^otherwise, (?P<text>.+)$")
REROLL_TIES = re.compile(
    r"^(?:(?:tied players |players who tied |they )?(?:reroll|roll again)(?: to break (?:a )?ties?| if (?:there is|"
    r"there's) a tie| (?:any|all) ties)|(?:break|settle) ties by rerolling)\b"
)
"""Ties between players' results are rerolled: "roll again to break ties", "reroll any ties"."""
STANDING = re.compile(
    r"\bthe (?:player|players|opponent|opponents) with the (?P<extreme>lowest|highest) (?:result|roll|total)\b"
)
"""Players' results compared: the player or opponent with the lowest or highest (when each player rolls)."""
WHO_HAD = re.compile(
    r"^if (?P<who>1 or more opponents|an opponent|you) (?:had|rolled|got) the (?P<extreme>highest|lowest) "
    r"(?:result|roll|total)(?: or tied for (?:it|the (?:highest|lowest)(?: result)?))?, (?P<text>.+)$"
)
"""An outcome on who had the lowest or highest result: "if one or more opponents had the highest result, ..."."""
INDICATED = re.compile(r"\b(?:the indicated|for each (?:other )?result)\b")

HIGHEST_NATURAL = re.compile(r"(?:a |an )?(?:die's |the )?highest natural result(?: on (?:a|the) die)?")
"""A die's highest natural result (CR 706.2: its number of sides)."""
SYMBOLIC_CONDITION = re.compile(
    r"equal to|greater than|less than|the same as|higher than|lower than|any other|an? (?:even|odd)"
)
"""A condition on a result compared with something the text names, not a number: kept as an outcome."""

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
HOW_THEN = re.compile(r"^(?:instead )?(?:roll )?(?:them|those dice|that die|it) and (?P<then>.+)$")
"""A replacement that rolls the dice as they are and then does something more ("... and you may <do>")."""
HOW_TOTAL = re.compile(r"^(?:instead )?(?:roll )?(?P<n>\d+) (?P<die>" + DIE + r") and use the total\b")

STATIC_MODIFIER = re.compile(
    r"^(?P<verb>increase|decrease) the results? of each (?P<die>die|"
    + DIE
    + r") (?:(?P<who>"
    + WHO
    + r") rolls?|rolled) by (?P<n>\d+)\b"
)
AFTER_ROLL = re.compile(
    r"^after (?P<who>" + WHO + r") rolls? (?:a|an|1 or more) (?P<die>" + DIE + r"), you may (?P<cost>.+)$"
)
COSTED_MODIFIER = re.compile(
    r"^you may (?P<cost>.+?) to (?P<verb>increase or decrease|decrease or increase|increase|decrease) the result of "
    r"(?:a|an|1) (?P<die>" + DIE + r") (?P<who>" + WHO + r") rolled by (?P<n>\d+)$"
)
"""An optional modifier in one sentence: "you may pay {1} to increase the result of a die any player rolled by 1"."""
IF_YOU_DO = re.compile(
    r"^if you do, (?P<verb>increase or decrease|decrease or increase|increase|decrease) "
    r"(?:the|that) result by (?P<n>\d+)\b"
)
ONCE_EACH_TURN = re.compile(r"^(?:do this|use this ability|activate) only once each turn\b")

REROLL_IF = re.compile(
    r"^if you roll (?P<cond>"
    + CONDITION
    + r"?)(?: on (?:a|an) (?P<die>"
    + DIE
    + r"))?, you may reroll (?:that die|it|that roll)\b"
)
REROLL_BY_COST = re.compile(
    r"^(?P<once>once each turn, )?you may (?P<cost>.+?) to (?:have (?P<who>any player|target player|that player) )?"
    r"reroll (?P<what>(?:1 or more|any number of) dice (?:you|that player) rolled|"
    r"(?:a|any|target) (?:die|" + SIZED_DIE + r")(?: (?:you|that player) rolled)?)\b"
)
REROLL_ACTIVATED = re.compile(
    r"^(?=reflip|reroll)(?P<coin>reflip (?:any|a|target) coin(?: or |$))?"
    r"(?:reroll (?P<what>any die|a die|target die|any number of dice)\b)?"
)
"""An activated reroll, reflip, or both joined by "or" (two permissions, in text order)."""
COIN_REPLACEMENT = re.compile(
    r"^(?:if )?(?P<who>" + WHO + r") would flip a coin, (?:instead (?:(?:you|they|that player) )?|"
    r"(?:you|they|that player) instead )flip (?P<n>\d+) coins and ignore "
    r"(?P<ignore>\d+)(?: of them)?$"
)
"""A partner-coin replacement (CR 705 with CR 616): "if you would flip a coin, instead flip 2 coins and ignore 1"."""

TRIGGER = re.compile(
    r"^(?P<when>whenever|when) (?P<who>you|a player|an opponent|each player|another player) rolls? "
    r"(?P<what>" + CONDITION + r"), (?P<effect>.+)$"
)
TRIGGER_PASSIVE_VOICE = re.compile(
    r"^(?P<when>whenever|when) (?:a|an) (?P<value>\d+) is rolled(?: on (?:a|an) (?P<die>"
    + DIE
    + r"))?, (?P<effect>.+)$"
)
ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth")
NTH_DIE = re.compile(
    r"your (?:(?P<n>\d+)(?:st|nd|rd|th)|(?P<word>" + "|".join(ORDINALS) + r")) die(?: each turn| this turn)?"
)
"""The Nth die a player rolls in a turn: "your third die each turn", "your 4th die this turn"."""
VISIT_WHAT = re.compile(r"to visit (?:your|their) attractions")
ONE_DIE = re.compile(r"(?:a|an|any|1) (?:die|" + DIE + r")")
PLANAR_WHAT = re.compile(r"(?:the )?planar die")
INTERVENING_IF = re.compile(
    r"^if (?:you roll(?:ed)?|(?:the|its|that die's) result is|the roll is|it's|any of those results (?:is|was)) "
    r"(?P<cond>" + CONDITION + r"), (?P<rest>.+)$"
)
"""An intervening "if" (CR 603.4) on the die that triggered: "if its result is 6, ..."."""
NUMERIC_EFFECT = re.compile(r"\bthe result\b|\bthat many\b|\bthose results\b")
YOU_MAY = re.compile(r"^you may (?P<cost>.+)$")
FROM_GRAVEYARD = re.compile(r"\b(?:return|put|cast) ~ from your graveyard\b")
"""A trigger whose effect returns the card from the graveyard functions there."""
CHAOS_ENSUES = re.compile(r"^whenever chaos ensues, (?P<effect>.+)$")
WHAT_BATCH = re.compile(r"^(?:1 or more dice|dice|1 or more " + DIE + r")$")
WHILE_VISITING = re.compile(r"\s+while rolling to visit (?:your|their) attractions$")
WHAT_SUFFIX = re.compile(r"\s+on (?:a|an|any) (?P<die>" + DIE + r")$")
FACE_COUNTS_AS = re.compile(
    r"\b(?:each|every|a|any) (?P<face>" + FACE + r") (?:roll|result|face) (?:of|on) the planar die "
    r"(?:is|counts as|is treated as) (?:a|an) (?P<as>" + FACE + r") (?:roll|result|face)\b"
)
"""A face of the planar die seen as another (a <face> roll, result or face counts as a <face> one)."""

PROTECTION = re.compile(r"\bprotection from (?:die rolls|dice)\b")
ROLLED_THIS_TURN = re.compile(
    r"\b(?:if|as long as) (?:you|a player)(?:'ve| have| has)? rolled (?:a die|dice|\d+ or (?:more|fewer) dice|"
    r"\d+ dice|1 or more dice) this turn\b"
)
UNTIL_ROLL = re.compile(
    r"\buntil (?:you|a player|that player) rolls? (?P<cond>[^,.]+?)"
    r"(?: while rolling to visit (?:your|their) attractions)?(?=$|[,.])"
)
STACK_DICE = re.compile(
    r"\bstack (?:\d+|a|an|x|that many) (?:dice|die|"
    + SIZED_DIE
    + r")\b|\b(?:dice|die) in (?:its|~'s|the|your) stack\b|"
    r"\b(?:the|its|~'s|your) stack (?:falls|topples|collapses)\b"
)
"""Dexterity dice: stacked, never rolled (stacking N dice, the dice in a stack, a stack that falls)."""
STORE_SENTENCE = re.compile(r"^(?:store|install|put) (?:those|the|that|its) results? on (?:~|it|them)$")
"""The results of the roll before are stored on the permanent (CR 706.8): "install the result on ~"."""
USE_STORED = re.compile(
    r"\b(?:uninstall|remove|use) (?:a|1|any) (?:stored |installed )?results? (?:from|on|stored on|installed on) "
    r"(?:~|it) (?:to use it |and use it )?(?:for|as|instead of) (?:the result of )?(?:a|1|any) (?:die|"
    + SIZED_DIE
    + r")"
)
"""A stored result used in place of a die's result (removed, uninstalled or used, for or as a die's result)."""
