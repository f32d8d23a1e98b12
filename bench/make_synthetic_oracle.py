"""Write a synthetic Scryfall ``oracle_cards`` bulk file of a given size, for import benchmarks.

Card objects have the fields and rough sizes of real ones (URIs, legalities, prices, image links);
about 1.5 % mention dice with varied sentences in Oracle templating, some are multi-face
(``card_faces``), and some are planes or phenomena (``layout: planar``). Names and texts are
invented; nothing is downloaded. Deterministic for a given seed.

    python bench/make_synthetic_oracle.py OUT.json --mb 160
"""

from __future__ import annotations

import argparse
import json
import random
import uuid
from pathlib import Path
from typing import Any

DASH = "\u2014"
FORMATS = (
    "standard future historic timeless gladiator pioneer explorer modern legacy pauper vintage penny "
    "commander oathbreaker standardbrawl brawl alchemy paupercommander duel oldschool premodern predh"
).split()
SETS = [
    ("afr", "Adventures in the Forgotten Realms"),
    ("unf", "Unfinity"),
    ("clb", "Battle for Baldur's Gate"),
    ("neo", "Kamigawa: Neon Dynasty"),
    ("dmu", "Dominaria United"),
    ("woe", "Wilds of Eldraine"),
    ("mkm", "Murders at Karlov Manor"),
    ("otj", "Outlaws of Thunder Junction"),
    ("blb", "Bloomburrow"),
]
TYPES = [
    "Creature \u2014 Human Wizard",
    "Creature \u2014 Elf Druid",
    "Creature \u2014 Goblin Warrior",
    "Instant",
    "Sorcery",
    "Artifact",
    "Enchantment",
    "Land",
    "Legendary Creature \u2014 Dragon",
    "Artifact \u2014 Equipment",
]
WORDS = (
    "ember vale storm thorn glimmer ash crown river shade iron wild hollow sky ruin bloom frost mire spark "
    "oath veil dusk marsh gale amber briar cinder dawn echo fang grove husk ivory jade kiln lantern moss "
    "nettle onyx pyre quill rift sable tide umber vigil warden yew zephyr basalt cobalt drift flint gloom "
    "harrow isle jackal knell loom"
).split()
PLAIN_ABILITIES = [
    "Flying",
    "Trample",
    "Vigilance",
    "Deathtouch",
    "Haste",
    "Lifelink",
    "When this creature enters, draw a card.",
    "{T}: Add one mana of any color.",
    "Whenever this creature attacks, target creature an opponent controls gets -1/-0 until end of turn.",
    "Destroy target artifact or enchantment.",
    "Counter target spell unless its controller pays {3}.",
    "Create two 1/1 white Soldier creature tokens.",
    "At the beginning of your upkeep, you gain 1 life.",
    "Equipped creature gets +2/+1.\nEquip {2}",
    "Target player mills three cards. Return up to one creature card from your graveyard to your hand.",
]
DICE_ABILITIES = [
    f"Roll a d20.\n1{DASH}9 | Draw a card.\n10{DASH}19 | Draw two cards.\n20 | Draw three cards.",
    f"When this creature enters, roll a d20.\n1{DASH}14 | Create a Treasure token.\n15{DASH}20 | Create two "
    "Treasure tokens.",
    "When this creature enters, roll a six-sided die. This creature deals damage equal to the result to any target.",
    "Whenever you roll one or more dice, put a +1/+1 counter on this creature.",
    "If you would roll one or more dice, instead roll that many dice plus one and ignore the lowest roll.",
    "Roll two d6. Create a number of 1/1 red Goblin creature tokens equal to the total.",
    "Whenever you roll a natural 20, return this card from your graveyard to your hand.",
    "Whenever you roll a die, you may pay 1 life. If you do, increase or decrease the result by 1.",
    "Roll a d4 and add the number of cards in your hand. Draw that many cards.",
    "{2}, {T}: Roll a d8. You gain life equal to the result.",
    f"Roll a d20 and subtract the number of cards in your hand.\n1{DASH}9 | Discard a card.\n10+ | Draw a card.",
    "If you roll a 1 on a six-sided die, you may reroll that die.",
    "Whenever chaos ensues, each player draws a card.",
]
PLANAR_ABILITIES = [
    "Creatures you control get +1/+1.\nWhenever chaos ensues, create a 2/2 green Bear creature token.",
    "Whenever a player casts a spell, that player gains 1 life.\nWhenever chaos ensues, untap all lands you control.",
    "When you encounter this phenomenon, each player rolls a d6 and draws cards equal to the result. "
    "Then planeswalk away from this phenomenon.",
]


def _name(rng: random.Random, used: set[str]) -> str:
    for attempt in range(1000):
        name = " ".join(rng.choice(WORDS).capitalize() for _ in range(rng.randint(2, 4)))
        if attempt > 20:
            name += f" {attempt}"
        if name not in used:
            used.add(name)
            return name
    raise RuntimeError("ran out of synthetic card names")


def _base(rng: random.Random, name: str) -> dict[str, Any]:
    card_id, oracle_id = str(uuid.UUID(int=rng.getrandbits(128))), str(uuid.UUID(int=rng.getrandbits(128)))
    set_code, set_name = rng.choice(SETS)
    number = rng.randint(1, 400)
    slug = name.lower().replace(" ", "-")
    image = f"https://cards.scryfall.io/{{}}/front/{card_id[0]}/{card_id[1]}/{card_id}.jpg?1700000000"
    return {
        "object": "card",
        "id": card_id,
        "oracle_id": oracle_id,
        "multiverse_ids": [rng.randint(100000, 700000)],
        "mtgo_id": rng.randint(10000, 130000),
        "tcgplayer_id": rng.randint(10000, 600000),
        "cardmarket_id": rng.randint(10000, 800000),
        "name": name,
        "lang": "en",
        "released_at": f"20{rng.randint(10, 25)}-0{rng.randint(1, 9)}-1{rng.randint(0, 9)}",
        "uri": f"https://api.scryfall.com/cards/{card_id}",
        "scryfall_uri": f"https://scryfall.com/card/{set_code}/{number}/{slug}?utm_source=api",
        "layout": "normal",
        "highres_image": True,
        "image_status": "highres_scan",
        "image_uris": {
            size: image.format(size) for size in ("small", "normal", "large", "png", "art_crop", "border_crop")
        },
        "mana_cost": "{" + str(rng.randint(1, 5)) + "}{" + rng.choice("WUBRG") + "}",
        "cmc": float(rng.randint(1, 7)),
        "type_line": rng.choice(TYPES),
        "oracle_text": "",
        "colors": [rng.choice("WUBRG")],
        "color_identity": [rng.choice("WUBRG")],
        "keywords": [],
        "legalities": {fmt: rng.choice(("legal", "not_legal")) for fmt in FORMATS},
        "games": ["paper", "mtgo"],
        "reserved": False,
        "foil": True,
        "nonfoil": True,
        "finishes": ["nonfoil", "foil"],
        "oversized": False,
        "promo": False,
        "reprint": rng.random() < 0.4,
        "variation": False,
        "set_id": str(uuid.UUID(int=rng.getrandbits(128))),
        "set": set_code,
        "set_name": set_name,
        "set_type": "expansion",
        "set_uri": f"https://api.scryfall.com/sets/{set_code}",
        "set_search_uri": f"https://api.scryfall.com/cards/search?order=set&q=e%3A{set_code}&unique=prints",
        "scryfall_set_uri": f"https://scryfall.com/sets/{set_code}?utm_source=api",
        "rulings_uri": f"https://api.scryfall.com/cards/{card_id}/rulings",
        "prints_search_uri": f"https://api.scryfall.com/cards/search?order=released&q=oracleid%3A{oracle_id}"
        "&unique=prints",
        "collector_number": str(number),
        "digital": False,
        "rarity": rng.choice(("common", "uncommon", "rare", "mythic")),
        "flavor_text": " ".join(rng.choice(WORDS) for _ in range(rng.randint(0, 18))) or None,
        "card_back_id": "0aeebaf5-8c7d-4636-9e82-8c27447861f7",
        "artist": f"{rng.choice(WORDS).capitalize()} {rng.choice(WORDS).capitalize()}",
        "artist_ids": [str(uuid.UUID(int=rng.getrandbits(128)))],
        "illustration_id": str(uuid.UUID(int=rng.getrandbits(128))),
        "border_color": "black",
        "frame": "2015",
        "full_art": False,
        "textless": False,
        "booster": True,
        "story_spotlight": False,
        "edhrec_rank": rng.randint(1, 30000),
        "penny_rank": rng.randint(1, 15000),
        "prices": {
            "usd": f"{rng.random() * 20:.2f}",
            "usd_foil": f"{rng.random() * 40:.2f}",
            "usd_etched": None,
            "eur": f"{rng.random() * 20:.2f}",
            "eur_foil": None,
            "tix": f"{rng.random():.2f}",
        },
        "related_uris": {
            "gatherer": f"https://gatherer.wizards.com/Pages/Card/Details.aspx?multiverseid={number}",
            "tcgplayer_infinite_articles": f"https://tcgplayer.pxf.io/c/4931599/1830156/21018?subId1=api&trafcat=infinite"
            f"&u=https%3A%2F%2Finfinite.tcgplayer.com%2Fsearch%3FcontentMode%3Darticle%26q%3D{slug}",
            "tcgplayer_infinite_decks": f"https://tcgplayer.pxf.io/c/4931599/1830156/21018?subId1=api&trafcat=infinite"
            f"&u=https%3A%2F%2Finfinite.tcgplayer.com%2Fsearch%3FcontentMode%3Ddeck%26q%3D{slug}",
            "edhrec": f"https://edhrec.com/route/?cc={slug}",
        },
        "purchase_uris": {
            "tcgplayer": f"https://tcgplayer.pxf.io/c/4931599/1830156/21018?subId1=api&u=https%3A%2F%2Fwww.tcgplayer.com"
            f"%2Fproduct%2F{number}%3Fpage%3D1",
            "cardmarket": f"https://www.cardmarket.com/en/Magic/Products/Search?referrer=scryfall&searchString={slug}",
            "cardhoarder": f"https://www.cardhoarder.com/cards/{number}?affiliate_id=scryfall&ref=card-profile",
        },
    }


def make_card(rng: random.Random, used: set[str], dice_share: float) -> dict[str, Any]:
    name = _name(rng, used)
    card = _base(rng, name)
    roll = rng.random()
    abilities = rng.sample(PLAIN_ABILITIES, rng.randint(1, 3))
    if roll < 0.003:
        card.update(
            layout="planar",
            type_line="Plane \u2014 " + rng.choice(WORDS).capitalize(),
            mana_cost="",
            oracle_text=rng.choice(PLANAR_ABILITIES),
            cmc=0.0,
        )
        return card
    if rng.random() < dice_share:
        abilities.insert(rng.randint(0, len(abilities)), rng.choice(DICE_ABILITIES))
    if roll < 0.05:
        back = _name(rng, used)
        split = max(1, len(abilities) // 2)
        card["name"] = f"{name} // {back}"
        card["layout"] = rng.choice(("transform", "modal_dfc", "adventure", "split"))
        card["type_line"] = "Creature \u2014 Human // Creature \u2014 Werewolf"
        card["card_faces"] = [
            {
                "object": "card_face",
                "name": face_name,
                "mana_cost": card["mana_cost"],
                "type_line": type_line,
                "oracle_text": "\n".join(texts),
                "power": "2",
                "toughness": "2",
                "artist": card["artist"],
            }
            for face_name, type_line, texts in (
                (name, "Creature \u2014 Human", abilities[:split]),
                (back, "Creature \u2014 Werewolf", abilities[split:]),
            )
        ]
        del card["oracle_text"], card["mana_cost"], card["image_uris"]
        return card
    card["oracle_text"] = "\n".join(abilities)
    return card


def write(out: Path, megabytes: float, seed: int = 706, dice_share: float = 0.015) -> int:
    """Write cards until the file reaches ``megabytes`` (10**6 bytes); returns the number of cards."""
    rng = random.Random(seed)
    target = int(megabytes * 1_000_000)
    used: set[str] = set()
    written = 0
    with open(out, "w", encoding="utf-8") as handle:
        handle.write("[\n")
        size = 2
        while size < target:
            text = json.dumps(make_card(rng, used, dice_share), ensure_ascii=False)
            if written:
                handle.write(",\n")
                size += 2
            handle.write(text)
            size += len(text.encode("utf-8"))
            written += 1
        handle.write("\n]\n")
    return written


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--mb", type=float, default=160.0, help="size in megabytes (default 160)")
    parser.add_argument("--seed", type=int, default=706)
    arguments = parser.parse_args()
    cards = write(arguments.out, arguments.mb, arguments.seed)
    print(f"wrote {cards:,} cards, {arguments.out.stat().st_size / 1e6:.1f} MB, to {arguments.out}")


if __name__ == "__main__":
    main()
