"""Seeded synthetic text corpora for the differential-privacy dashboard.

What it generates
-----------------
Users who write short English documents in two genres:

* ``email``  -- office / work / personal mail (meeting scheduling, invoices and
  payments, travel plans, family and weekend news, project deadlines);
* ``review`` -- product reviews (phones and batteries, kitchen appliances,
  clothing and fit, shipping and delivery, customer service, books and music,
  fitness gear).

Every sentence is produced from hand-written phrase banks in this file: fixed
stock sentences ("please let me know if you have any questions") and templates
with slots ("can we move the {mtg} to {day} at {time}?") that are filled with
names, products, days, places and numbers.  Nothing is random word salad.

Why it looks the way it does
----------------------------
The corpora feed real experiments (BayesianDP n-gram release, DP n-gram
extraction with DPNE/DPSU, TopicDP on LDA topics), so the statistics matter:

* **Latent topics.**  There are 12 topics (5 e-mail, 7 review), each with its
  own vocabulary and phrase bank.  A user has a Dirichlet mixture over the
  topics of each genre; each document draws a dominant topic from it (and a
  few sentences wander to another of the user's topics), so LDA with ~10
  topics recovers sensible topics.
* **Shared phrases.**  A few hundred fixed sentences of 4-10 words and the
  literal parts of the templates have Zipf-like popularity, so many long
  n-grams (4- to 8-grams) are used by dozens of distinct users, while names,
  surnames, cities, amounts, invoice and order numbers give a long tail of
  user-unique text.  Every list of slot values is Zipf-weighted too, so word
  frequencies are Zipf-like overall.
* **Heavy-tailed activity.**  Users write 2-8 documents of 2-8 sentences from
  skewed distributions: most write little, some write a lot.
* **The public shift.**  ``public=True`` draws from a related but shifted
  distribution playing the role of public data used as a prior: ~70% of users
  are reviewers instead of ~40%, topic proportions differ, roughly one item in
  nine of every phrase / value list is absent and others are rarer or more
  popular, a few public-only phrases and values exist, and the numeric tables
  (amounts, invoice / order numbers) are drawn differently.  Its vocabulary
  covers most but not all private tokens, and most private trigrams.

Format and seeds
----------------
Corpora are gzip'd JSON lines, one line per document::

    {"user": "u000123", "genre": "email", "text": "Sentence one. Sentence two!"}

Users are contiguous; output is byte-for-byte deterministic for a seed.  The
shipped files are ``private.jsonl.gz`` (2,400 users, seed 20261121) and
``public.jsonl.gz`` (1,500 users, seed 20261122, ``public=True``).
``python -m sample_data.generate`` rewrites both;
``python -m sample_data.generate --users N --out PATH [--public] [--seed S]``
writes a corpus of any size.  ``generate_token_users`` gives the same
distribution already tokenised, fast enough for 1,000,000 users.

Randomness comes only from ``numpy.random.default_rng`` generators seeded from
the given seed (no global state).  User ``i`` depends only on the seed and the
users before it, so a smaller corpus is a prefix of a larger one.
"""

from __future__ import annotations

import argparse
import gc
import gzip
import json
import os
import re
import sys
from bisect import bisect_right
from functools import lru_cache
from typing import Iterator

import numpy as np

__all__ = [
    "PRIVATE_SEED",
    "PUBLIC_SEED",
    "PRIVATE_USERS",
    "PUBLIC_USERS",
    "PRIVATE_PATH",
    "PUBLIC_PATH",
    "generate_records",
    "write_corpus",
    "generate_token_users",
    "tokenize_text",
    "read_corpus",
]

PRIVATE_SEED = 20261121
PUBLIC_SEED = 20261122
PRIVATE_USERS = 2400
PUBLIC_USERS = 1500
_HERE = os.path.dirname(os.path.abspath(__file__))
PRIVATE_PATH = os.path.join(_HERE, "private.jsonl.gz")
PUBLIC_PATH = os.path.join(_HERE, "public.jsonl.gz")

# Seed of the numeric value tables (amounts, invoice / order numbers); the
# public bank uses _TABLE_SEED + 1 so its numbers differ from the private ones.
_TABLE_SEED = 770011
_BATCH = 1024  # users whose topic mixtures are drawn together (fixed: prefix property)
_RAND_CHUNK = 1 << 16


def _L(s: str) -> list[str]:
    """Split a ``a|b|c`` bank string into a de-duplicated list (order kept)."""
    return list(dict.fromkeys(x.strip() for x in s.split("|") if x.strip()))


# ---------------------------------------------------------------------------
# Phrase banks.  Order inside every list is popularity rank (first = most
# popular); weights are Zipf-like over that order.
# ---------------------------------------------------------------------------

_GLOBAL_SLOTS: dict[str, list[str]] = {
    "first": _L(
        "Anna|John|Maria|David|Sarah|Michael|Laura|James|Emma|Daniel|Sophie|Chris|"
        "Julia|Mark|Olivia|Peter|Rachel|Tom|Kate|Paul|Lisa|Steve|Nina|Alex|Hannah|"
        "Ben|Claire|Sam|Grace|Ryan|Emily|Matt|Jessica|Nick|Amy|Adam|Lucy|Jack|Megan|"
        "Eric|Helen|Kevin|Chloe|Brian|Zoe|Jason|Alice|Luke|Ella|Simon|Ruth|Greg|Jane|"
        "Tim|Diana|Andrew|Fiona|Martin|Irene|Oscar|Vera|Henry|Leah|Victor|Carmen|Ivan|"
        "Paula|Omar|Priya|Raj|Mei|Kenji|Yuki|Ahmed|Fatima|Carlos|Lucia|Pedro|Ines|"
        "Marco|Giulia|Hans|Greta|Lars|Ingrid|Pierre|Camille|Sean|Niamh|Owen|Bethany|"
        "Dylan|Molly|Tyler|Abby|Caleb|Naomi|Isaac|Ruby|Felix|Mila|Hugo|Ada|Leo|Iris|"
        "Noah|Maya|Ethan|Ava|Liam|Mia|Lucas|Isla|Mason|Lily|Logan|Harper|Elijah|Aria|"
        "Aiden|Nora|Gavin|Tessa|Derek|Monica|Warren|Bianca|Rosa|Dmitri|Olga|Anya|"
        "Tariq|Layla|Nadia|Samir|Jonas|Freya|Magnus|Astrid|Wei|Lin|Hiro|Sakura|Arjun|"
        "Divya|Kofi|Ama|Tunde|Zara|Elena|Stefan|Petra|Milan|Jana|Tomas|Eva|Andre|"
        "Beatriz|Rafael|Clara|Diego|Valeria|Mateo|Sofia|Nathan|Erin|Colin|Heather|"
        "Keith|Wendy|Gary|Karen|Doug|Janet|Frank|Nancy|Roger|Linda|Harold|Joan|Walter|"
        "Betty|Curtis|Dana|Brent|Holly|Shane|Kelly|Troy|Tracy|Glen|April|Neil|Joy|"
        "Ross|Faith|Dean|Hope|Ian|Jill|Kurt|Lynn|Lance|Gina|Miles|Tara|Reid|Vivian|"
        "Wade|Yvonne|Quinn|Blake|Casey|Jordan|Morgan|Riley|Avery|Jamie|Robin|Taylor|"
        "Drew|Parker|Reese|Skyler|Emery|Rowan|Sage|Dakota|Kai|Remy|Jude|Ezra|Silas|"
        "Theo|Otis|Arlo|Ivy|Hazel|Willow|Violet|Stella|Pearl|June|Mabel|Edith|Agnes|"
        "Cora|Boris|Yusuf|Amara|Chidi|Nkechi|Sione|Mateus|Joaquin|Rocio|Bruno|Heidi|"
        "Ansel|Linnea|Soren|Ottilie|Bram|Femke|Wouter|Aoife|Cillian|Rhys|Seren|Gwen"
    ),
    "last": _L(
        "Miller|Garcia|Chen|Patel|Walker|Novak|Brennan|Okafor|Lindqvist|Romero|"
        "Fischer|Kowalski|Hughes|Tanaka|Moreau|Sullivan|Dubois|Kim|Larsen|Haddad|"
        "Rossi|Murphy|Schneider|Nguyen|Costa|Bauer|Ortega|Khan|Wright|Hoffman|"
        "Carter|Price|Ellison|Baxter|Lambert|Fleming|Whitaker|Sato|Ivanova|Petrov|"
        "Mendes|Silva|Ferreira|Gallagher|Doyle|Keane|Mahoney|Quigley|Brooks|Foster|"
        "Harding|Lowell|Prescott|Sinclair|Thornton|Vance|Waller|Yardley|Abbott|"
        "Bishop|Crane|Drummond|Easton|Fairbanks|Gill|Hale|Ingram|Jessop|Kendall|"
        "Lockwood|Marsh|Nolan|Osborne|Pike|Quinlan|Radford|Stroud|Tolliver|Upton|"
        "Vickers|Wyatt|Yates|Zeller|Achebe|Banerjee|Castellano|Delacroix|Eriksen|"
        "Fontaine|Grunwald|Holloway|Iyer|Jaramillo|Kessler|Lindgren|Mwangi|Nakamura|"
        "Oyelaran|Pellegrini|Rahman|Sandoval|Takahashi|Umarov|Valdivia|Weissman|"
        "Xiong|Yilmaz|Zielinski|Ashford|Blackwood|Carmichael|Dunmore|Everett|Fenwick|"
        "Greaves|Hartley|Irwin|Jennings|Kirkland|Langley|Merriweather|Northcott|"
        "Oakley|Pemberton|Redgrave|Stanhope|Trelawney|Underhill|Varga|Winslow"
    ),
    "city": _L(
        "Chicago|Boston|Denver|Seattle|London|Austin|New York|Toronto|Berlin|Paris|"
        "Portland|Atlanta|Dallas|Madrid|San Francisco|Amsterdam|Dublin|Phoenix|Miami|"
        "Lisbon|Rome|Vienna|Houston|Nashville|Prague|Tokyo|Sydney|Munich|Barcelona|"
        "Montreal|Vancouver|Detroit|Orlando|Milan|Zurich|Copenhagen|Stockholm|Oslo|"
        "Brussels|Geneva|Hamburg|Helsinki|Warsaw|Budapest|Athens|Istanbul|Osaka|Seoul|"
        "Singapore|Melbourne|Auckland|Mumbai|Delhi|Bangalore|Dubai|Cairo|Nairobi|"
        "Johannesburg|Lagos|Mexico City|Bogota|Lima|Santiago|Buenos Aires|Los Angeles|"
        "San Diego|Las Vegas|Salt Lake City|Kansas City|New Orleans|Philadelphia|"
        "Pittsburgh|Baltimore|Minneapolis|Cleveland|Cincinnati|Sacramento|Raleigh|"
        "Charlotte|Tampa|Edinburgh|Manchester|Glasgow|Bristol|Leeds|Lyon|Marseille|"
        "Valencia|Seville|Porto|Florence|Naples|Venice|Krakow|Bergen|Reykjavik|Quebec|"
        "Ottawa|Calgary|Boulder|Savannah|Charleston|Tucson|Albuquerque|Honolulu|Anchorage"
    ),
    "day": _L("Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday"),
    "weekday": _L("Monday|Tuesday|Wednesday|Thursday|Friday"),
    "daypart": _L("morning|afternoon|evening|night"),
    "month": _L(
        "January|March|June|September|October|April|May|November|February|July|"
        "August|December"
    ),
    "time": _L(
        "10 am|2 pm|9 am|3 pm|11 am|noon|1 pm|4 pm|9 30|10 30|half past two|"
        "eight in the morning|4 30|5 pm|8 am|two o'clock|quarter past ten|"
        "eleven thirty|3 15|1 45|six in the evening|7 30|quarter to nine"
    ),
    "numword": _L(
        "two|three|four|five|ten|six|a few|several|twenty|seven|eight|fifteen|"
        "nine|twelve|thirty|eleven|forty|fourteen"
    ),
    "fewnum": _L("two|three|a few|four|five|six|several|ten"),
    "timeunit": _L("weeks|months|days|years"),
    "relative": _L(
        "wife|husband|mom|daughter|son|dad|sister|brother|kids|girlfriend|"
        "boyfriend|grandmother|friend|partner|father in law|mother in law|niece|"
        "nephew|cousin|grandfather|aunt|uncle|roommate|neighbor|teenage son|"
        "teenage daughter|best friend|coworker|parents|grandkids"
    ),
}

# Genre-wide banks: shared stock sentences and templates of a genre.
_GENRES: dict[str, dict] = {
    "email": {
        "slots": {
            "greet": _L("Hi|Hello|Dear|Hey|Good morning|Hi there|Good afternoon"),
            "opener": _L(
                "I hope you are well|hope you had a good weekend|thanks for your email|"
                "just a quick note|I hope your week is going well|thank you for your message|"
                "quick question for you|hope all is well|thanks for getting back to me|"
                "I hope you had a nice holiday|happy Monday|I wanted to follow up on our call|"
                "sorry to bother you again|long time no see"
            ),
            "closing": _L(
                "Thanks|Best regards|Kind regards|Best|Cheers|Many thanks|Talk soon|"
                "All the best|Warm wishes|Thank you|Regards|See you soon|Take care"
            ),
            "dept": _L(
                "marketing|finance|sales|design|legal|support|engineering|operations|"
                "research|human resources|product|data|procurement|facilities"
            ),
            "colleague": _L("{first}|{first} {last}|Mr {last}|Ms {last}|{first} from {dept}"),
            "reason": _L(
                "the school run|a dentist appointment|a doctor's appointment|a family thing|"
                "a delivery at home|the train strike|a client call|a workshop|a flat tyre|"
                "a sick child"
            ),
        },
        "fixed": [
            "Please let me know if you have any questions.",
            "Thanks for the update.",
            "Let me know if you have any questions.",
            "Hope you are doing well.",
            "Thanks for your help.",
            "Sorry for the late reply.",
            "Looking forward to hearing from you.",
            "Have a great weekend.",
            "Talk to you soon.",
            "Thank you for getting back to me so quickly.",
            "I hope this email finds you well.",
            "Just following up on my last email.",
            "Thanks in advance for your help.",
            "Feel free to reach out if you need anything else.",
            "I will get back to you as soon as possible.",
            "Please keep me posted.",
            "That sounds good to me.",
            "Let me know what you think.",
            "I will keep you updated.",
            "Thanks again for all your help with this.",
            "Please let me know if you need anything else from me.",
            "I am happy to help with that.",
            "Please see my comments below.",
            "Sorry for the confusion.",
            "I will look into it and get back to you.",
            "Could you please confirm that you received this?",
            "Have a good evening.",
            "Let me know if this works for you.",
            "I really appreciate your help.",
            "Please let me know if anything changes.",
            "I just wanted to check in with you.",
            "I am not sure I understand, could you explain a bit more?",
        ],
        "templates": [
            "I just spoke with {colleague} about this.",
            "I have copied {colleague} on this email.",
            "{first} {last} will be joining us from the {dept} team.",
            "Could you ask {first} to call me when they are back?",
            "I will call you on {weekday} {daypart}.",
            "I am out of the office on {weekday} because of {reason}.",
            "{first} from {dept} asked me to forward this to you.",
            "Thanks for your quick reply, {first}.",
            "I will be working from home on {weekday}.",
            "I talked to {first} in {dept} and they agree.",
            "Let me check with {first} and get back to you by {weekday}.",
            "Sorry, I missed your call on {weekday} {daypart}.",
        ],
        "greeting": "{greet} {first}, {opener}.",
        "signoff": "{closing}, {me}.",
    },
    "review": {
        "slots": {
            "rating_verdict": _L(
                "Five stars, would buy again|Five stars, love it|Four stars, mostly happy|"
                "Four stars, great value|Three stars, does the job|Five stars, worth every penny|"
                "Four stars, no complaints|Two stars, could be better|One star, very disappointed|"
                "Five stars, exactly what I needed|Three stars, not bad for the price|"
                "One star, returned it|Two stars, not what I expected"
            ),
            "rating_low": _L("Three|Two"),
            "rating_lc": _L("three|four|two"),
            "reaction": _L(
                "they love it|she uses it every day|he was thrilled|it was a big hit|"
                "they were a little disappointed|it made their week|she was so happy|"
                "he has not stopped using it|they asked where I got it"
            ),
            "duration_verdict": _L(
                "it still works like new|it is holding up well|I have no complaints so far|"
                "it already started to fall apart|I use it almost every day|"
                "it is still going strong|it has been great so far|"
                "I am starting to notice some wear"
            ),
            "complaint": _L(
                "the instructions were confusing|it feels a bit cheap|it took forever to arrive|"
                "it is smaller than it looks|the price went up right after I bought it|"
                "one piece was missing|it is louder than I expected|the color was off"
            ),
            "freq": _L("every day|almost daily|a few times a week|every weekend|twice a day|once a week"),
            "works_adj": _L("perfectly|great|like new|fine|as well as day one"),
            "value_verdict": _L(
                "a steal|a great deal|hard to beat|a bit overpriced|totally worth it|"
                "not worth it|good value|a fair price"
            ),
            "item_generic": _L("item|product|unit|thing|device|set"),
        },
        "fixed": [
            "I would highly recommend this product to anyone.",
            "Great value for the money.",
            "Would buy again.",
            "I would highly recommend this to anyone.",
            "Works as described.",
            "Exactly what I was looking for.",
            "I am very happy with this purchase.",
            "Five stars.",
            "Highly recommend.",
            "It does exactly what it says.",
            "Not worth the money.",
            "I have been using it for a few weeks now and I love it.",
            "Overall I am very satisfied.",
            "Do not waste your money on this.",
            "This is my second one and I still love it.",
            "I bought this as a gift and they loved it.",
            "Better than I expected for the price.",
            "I will update this review if anything changes.",
            "Pretty good but not perfect.",
            "I wish I had bought this sooner.",
            "Good quality and a fair price.",
            "I would give it zero stars if I could.",
            "It is not perfect but it does the job.",
            "I read a lot of reviews before buying this one.",
            "You get what you pay for.",
            "I was a little skeptical at first but it works great.",
            "It looks even better in person.",
            "I ended up returning it.",
            "Easy to use right out of the box.",
            "This was a great purchase.",
            "I would definitely buy this again.",
            "Thank you for making such a great product!",
        ],
        "templates": [
            "I bought this for my {relative} and {reaction}.",
            "{rating_verdict}.",
            "I have had it for {fewnum} {timeunit} and {duration_verdict}.",
            "Only giving it {rating_lc} stars because {complaint}.",
            "I use it {freq} and it still works {works_adj}.",
            "For the price, it is {value_verdict}.",
            "My {relative} has the same one and recommended it.",
            "I ordered a second one for my {relative}.",
            "{rating_low} stars, {complaint}.",
        ],
    },
}

_TOPICS: list[dict] = [
    # ------------------------------------------------------------ e-mail topics
    {
        "name": "meetings",
        "genre": "email",
        "slots": {
            "mtg": _L(
                "meeting|call|catch up|team meeting|review|workshop|weekly sync|"
                "one on one|interview|presentation|demo|kickoff meeting|planning session|"
                "standup|retrospective|board meeting|training session|lunch meeting"
            ),
            "room": _L(
                "the big conference room|meeting room {roomno}|the small room on the third floor|"
                "room {roomno}|the boardroom|the usual room|the quiet room by the kitchen|"
                "the training room"
            ),
            "agenda_item": _L(
                "budget review|hiring plan|quarterly goals|new office layout|team offsite|"
                "customer feedback|holiday schedule|onboarding process|roadmap|"
                "vendor contracts|training plan|security update"
            ),
        },
        "fixed": [
            "Does this time work for everyone?",
            "I will send out a calendar invite shortly.",
            "Please let me know what time works best for you.",
            "Can we push the meeting back by thirty minutes?",
            "I will share the slides before the meeting.",
            "Let's find a time that works for both of us.",
            "I am running a few minutes late.",
            "Please see the meeting notes below.",
            "Can we reschedule for later this week?",
            "We can use the same video link as last week.",
            "Could you please take notes during the meeting?",
            "Let's keep the meeting short this time.",
            "The meeting room is booked for the whole afternoon.",
            "Please accept the calendar invite if you can attend.",
            "I am free any time after lunch.",
            "I have a conflict at that time.",
            "Let's move the meeting to next week.",
            "Please come prepared with your questions.",
            "The meeting has been cancelled.",
            "I will set up a short call to discuss.",
            "Does anyone have anything to add to the agenda?",
            "I will book a room for the meeting.",
            "Thanks everyone for joining the call today.",
            "We ran out of time, so let's continue next week.",
        ],
        "templates": [
            "Can we move the {mtg} to {weekday} at {time}?",
            "Are you free on {weekday} {daypart} for a quick {mtg}?",
            "I booked {room} for the {mtg} on {weekday}.",
            "The {mtg} with {first} has been moved to {weekday}.",
            "I will send a calendar invite for {weekday} at {time}.",
            "Could you join the {mtg} on {weekday} {daypart}?",
            "{first} cannot make it to the {mtg} on {weekday}, so we need to find another time.",
            "Let's meet in {room} at {time}.",
            "Please add {first} {last} to the invite for the {mtg}.",
            "The agenda for {weekday} includes the {agenda_item} and the {agenda_item}.",
            "I have a conflict at {time}, would {time} work instead?",
            "Sorry, I have to cancel our {mtg} on {weekday}.",
            "The {mtg} on {weekday} will be about the {agenda_item}.",
            "Would {weekday} at {time} work for the {mtg}?",
            "I am free on {weekday} {daypart} and {weekday} {daypart}.",
            "Our {mtg} with the {dept} team is on {weekday} at {time}.",
            "{first} will lead the {mtg} on the {agenda_item}.",
        ],
    },
    {
        "name": "invoices",
        "genre": "email",
        "slots": {
            "pay_doc": _L(
                "invoice|payment|receipt|purchase order|statement|bill|credit note|"
                "quote|remittance advice|order confirmation"
            ),
            "expense": _L(
                "hotel stay|taxi ride|team lunch|conference fee|train tickets|client dinner|"
                "office supplies|software license|printer toner|parking|flight"
            ),
            "company": _L(
                "{compword} {compsuffix}|{compword} {compsuffix}|{last} and Sons|{last} {compsuffix}"
            ),
            "compword": _L(
                "Blue River|Oak Tree|Summit|Harbor|Maple|Granite|Silver Lake|Pine Hill|"
                "Red Rock|Cedar|Lakeside|Evergreen|North Star|Bright Path|Copper Hill|"
                "Westfield|Clearwater|Ironbridge|Sunrise|Riverside"
            ),
            "compsuffix": _L(
                "Supplies|Consulting|Logistics|Services|Partners|Design|Group|Printing|"
                "Foods|Media|Solutions|Electric|Builders|Cleaning"
            ),
            "pay_method": _L("bank transfer|credit card|check|direct debit|the online portal"),
            "pay_problem": _L(
                "the amount is wrong|the tax is missing|the address is out of date|"
                "it was charged twice|the purchase order number is missing|"
                "the bank details have changed|the due date is wrong"
            ),
        },
        "fixed": [
            "Please find attached the invoice for last month.",
            "Could you please confirm that the payment has been received?",
            "The payment should arrive within three business days.",
            "Let me know if you need any other documents.",
            "I have forwarded the invoice to our accounts team.",
            "Please use the reference number when making the payment.",
            "The amount has been refunded to your account.",
            "We have not yet received the payment.",
            "Please update your billing address in the system.",
            "I will process the reimbursement this week.",
            "The budget for this quarter is almost used up.",
            "Please send all receipts by the end of the month.",
            "This invoice is now thirty days overdue.",
            "Please disregard the previous invoice.",
            "The payment was sent this morning.",
            "Could you send me an updated invoice?",
            "Our payment terms are thirty days from the invoice date.",
            "I have attached the signed purchase order.",
            "The expense report is ready for your approval.",
            "Please find the receipt attached.",
            "Accounts payable will process it by Friday.",
        ],
        "templates": [
            "Please find attached invoice number {invno} for {month}.",
            "The total amount due is {amount} dollars.",
            "Payment is due by {month} {dnum}.",
            "We received your payment of {amount} dollars on {weekday}.",
            "Could you send me a copy of the receipt for the {expense}?",
            "I submitted my expense report for the trip to {city}.",
            "The {pay_doc} from {company} is still outstanding.",
            "Invoice {invno} from {company} was paid by {pay_method}.",
            "The {pay_doc} for the {expense} came to {amount} dollars.",
            "I think there is a problem with invoice {invno}, {pay_problem}.",
            "Can I pay the {pay_doc} by {pay_method}?",
            "Please approve the {pay_doc} from {company} before {weekday}.",
            "The refund of {amount} dollars should show up in {fewnum} days.",
            "{company} sent a new {pay_doc} for {amount} dollars.",
            "I need the {pay_doc} for the {expense} by {weekday}.",
        ],
    },
    {
        "name": "travel",
        "genre": "email",
        "slots": {
            "landmark": _L(
                "train station|airport|old town|convention center|river|main square|"
                "city center|harbor|cathedral|university|beach|park"
            ),
            "event": _L(
                "conference|trade show|client visit|training course|offsite|summit|"
                "wedding|trip|workshop|sales meeting"
            ),
            "weather": _L(
                "snow|storm|fog|heavy rain|strong winds|a technical problem|a strike|"
                "a crew shortage|thunderstorms"
            ),
            "adj_pos": _L(
                "clean|comfortable|quiet|great|lovely|modern|cozy|spacious|charming|affordable"
            ),
            "transport": _L(
                "flight|train|bus|ferry|rental car|taxi|shuttle|connecting flight|night train"
            ),
            "bag_thing": _L(
                "passport|charger|umbrella|suitcase|laptop|boarding pass|travel adapter|jacket"
            ),
        },
        "fixed": [
            "I will be travelling for most of next week.",
            "I will have limited access to email while I am away.",
            "Please send me the hotel confirmation when you have it.",
            "The flight was delayed but we made it in the end.",
            "Do you know if breakfast is included in the room rate?",
            "I will take a taxi from the airport to the hotel.",
            "Don't forget to bring your passport.",
            "I will check in online the night before.",
            "We should leave for the airport at least two hours early.",
            "The conference starts early on the first day.",
            "I booked a window seat for the flight.",
            "My luggage did not arrive with me.",
            "The hotel is within walking distance of the office.",
            "I am stuck at the airport for a few more hours.",
            "We just landed and are waiting for our bags.",
            "Could you book the hotel for two nights?",
            "I will send you my flight details later today.",
            "The train was packed but it was on time.",
            "I will be back in the office on Monday.",
            "We are looking for a good place to eat near the hotel.",
        ],
        "templates": [
            "My flight to {city} leaves on {day} at {time}.",
            "I booked a room at a hotel near the {landmark} in {city}.",
            "The train from {city} to {city} takes about {fewnum} hours.",
            "We land in {city} on {day} {daypart}.",
            "Could you book a rental car for the trip to {city}?",
            "I will be in {city} for the {event} from {weekday} to {weekday}.",
            "The hotel in {city} was {adj_pos} and close to the {landmark}.",
            "My {transport} was delayed by {fewnum} hours because of {weather}.",
            "Here is the itinerary for the trip to {city}.",
            "Have you been to {city} before?",
            "I left my {bag_thing} at the hotel in {city}.",
            "We are taking the {transport} to {city} on {day}.",
            "The {event} in {city} is in {month} this year.",
            "{first} recommended a {adj_pos} restaurant near the {landmark}.",
            "I am flying back from {city} on {day} {daypart}.",
            "The {transport} to {city} was cancelled, so I will arrive on {day}.",
        ],
    },
    {
        "name": "family",
        "genre": "email",
        "slots": {
            "party": _L(
                "birthday party|barbecue|small dinner|garden party|picnic|housewarming|"
                "surprise party|game night|movie night|family lunch"
            ),
            "place_fun": _L(
                "park|beach|zoo|lake|museum|aquarium|playground|farm|swimming pool|"
                "fair|ice rink|science center|botanical garden|cinema"
            ),
            "pet": _L("dog|cat|puppy|kitten|rabbit|hamster|parrot|goldfish"),
            "pet_event": _L(
                "learned a new trick|chewed up my shoes|is finally house trained|"
                "got into the garden again|is doing much better after the vet|"
                "sleeps on the couch all day|ran away and came back an hour later"
            ),
            "school_thing": _L(
                "kindergarten|piano lessons|swimming lessons|soccer practice|middle school|"
                "ballet|a new school|art classes|high school|college|drama club"
            ),
            "meal": _L("dinner|lunch|brunch|coffee|a barbecue|pizza|tea|breakfast"),
            "holiday": _L(
                "summer holidays|long weekend|Easter break|winter holidays|school break|"
                "Thanksgiving weekend|New Year"
            ),
            "home_project": _L(
                "painting the living room|fixing the fence|cleaning out the garage|"
                "planting the vegetable garden|building a treehouse|redoing the bathroom|"
                "putting up shelves"
            ),
            "kid": _L("{first}|the baby|the kids|the twins|our youngest|our oldest|little {first}"),
        },
        "fixed": [
            "Hope you had a nice weekend.",
            "The kids are growing up so fast.",
            "We had a lovely time with the whole family.",
            "Give my love to everyone at home.",
            "It was so good to see you last weekend.",
            "We should get together again soon.",
            "Thanks again for dinner on Saturday.",
            "The weather was perfect for a day at the beach.",
            "Say hi to your parents for me.",
            "I will bring dessert if that is okay.",
            "Mom says hi and sends her love.",
            "We are all doing well here.",
            "The baby is finally sleeping through the night.",
            "We had a quiet weekend at home.",
            "Let me know when you are free to come over.",
            "The kids cannot wait to see you.",
            "We are so proud of her.",
            "Happy birthday, I hope you have a wonderful day!",
            "Congratulations on the new house!",
            "Dad is feeling much better now.",
            "We miss you all very much.",
            "Send me some pictures when you can.",
        ],
        "templates": [
            "We are having a {party} for {first} on {day}.",
            "My {relative} is coming to visit us this weekend.",
            "The kids had a great time at the {place_fun}.",
            "We spent {day} at the {place_fun} with my {relative}.",
            "{kid} just started {school_thing} and loves it.",
            "Would you like to come over for {meal} on {day}?",
            "Our {pet} {pet_event}.",
            "Happy birthday to {first}, I hope you have a wonderful day!",
            "We are thinking of going to {city} for the {holiday}.",
            "We finally finished {home_project}.",
            "This weekend we are {home_project}.",
            "{first} and {first} are coming to the {party} too.",
            "My {relative} says hello to everyone.",
            "We took {kid} to the {place_fun} on {day}.",
            "Are you coming home for the {holiday}?",
            "{kid} has a cold, so we stayed home on {day}.",
        ],
    },
    {
        "name": "projects",
        "genre": "email",
        "slots": {
            "deliverable": _L(
                "report|proposal|slides|draft|budget|timeline|final report|presentation|"
                "design document|project plan|contract|spreadsheet|website update|"
                "quarterly review|survey results|grant application|user guide"
            ),
            "task_area": _L(
                "testing|client communication|data cleaning|design work|documentation|"
                "budget tracking|the training materials|the website|recruiting|"
                "the migration|quality checks|the launch plan"
            ),
            "client_word": _L("client|customer|board|manager|partner|team lead|sponsor"),
            "doc_type": _L("document|spreadsheet|folder|drive|tracker|slide deck"),
            "prodline": _L(
                "new website|mobile app|spring campaign|product update|customer portal|"
                "new dashboard|loyalty program|online store"
            ),
            "blocker": _L(
                "waiting for the data|waiting for legal approval|short on people|"
                "blocked by a bug|waiting for the client|missing the final numbers"
            ),
        },
        "fixed": [
            "Please find attached the latest version of the report.",
            "We are a little behind schedule this week.",
            "I will send you the final draft by tomorrow morning.",
            "Can you give me a quick status update on the project?",
            "Let me know if you need more time.",
            "I think we can still make the deadline.",
            "Please review the attached document and share your feedback.",
            "We need to finalize the budget before the end of the month.",
            "I have added a few comments to the draft.",
            "Let's discuss the next steps in our meeting.",
            "Great work on the presentation yesterday.",
            "The client was very happy with the results.",
            "I have uploaded the files to the shared folder.",
            "We should agree on the scope before we start.",
            "The project is on track and within budget.",
            "I will take care of the rest.",
            "Could you double check the numbers in the last section?",
            "We need a decision on this by the end of the week.",
            "Please send me your part by Thursday.",
            "I made the changes you suggested.",
            "The deadline has been extended by one week.",
        ],
        "templates": [
            "The deadline for the {deliverable} is {weekday}.",
            "Could you review the {deliverable} before {weekday}?",
            "I have updated the {deliverable} based on the feedback from {first}.",
            "We are on track to finish the {deliverable} by the end of {month}.",
            "{first} will take care of the {task_area} while I am away.",
            "The {client_word} asked for a few changes to the {deliverable}.",
            "Please add your comments to the shared {doc_type} by {weekday}.",
            "The launch of the {prodline} has been pushed to {month}.",
            "We need {numword} more days to finish the {task_area}.",
            "I attached the {deliverable} for the {prodline}.",
            "We are {blocker}, so the {deliverable} will be late.",
            "{first} and I are working on the {task_area} this week.",
            "The {client_word} approved the {deliverable} on {weekday}.",
            "Can you send me the latest {deliverable} before the meeting with the {client_word}?",
            "The first version of the {deliverable} is in the shared {doc_type}.",
        ],
    },
    # ------------------------------------------------------------ review topics
    {
        "name": "phones",
        "genre": "review",
        "slots": {
            "device": _L(
                "phone|charger|power bank|tablet|laptop|pair of headphones|pair of earbuds|bluetooth speaker|"
                "smartwatch|charging cable|phone case|wireless charger|screen protector|"
                "keyboard|mouse|webcam|router"
            ),
            "batt_device": _L(
                "phone|laptop|tablet|smartwatch|power bank|bluetooth speaker|"
                "fitness watch|e reader|charging case|game controller"
            ),
            "elec_cmp": _L(
                "much faster|a lot lighter|way better|slightly worse|much quieter|"
                "a lot cheaper|more reliable|easier to use"
            ),
            "device2": _L("laptop|phone|tablet|car|smart TV|desktop|old laptop|watch"),
            "battery_dur": _L(
                "all day|about two days|a full day of heavy use|less than a day|"
                "only a few hours|almost a week|a whole weekend|the entire flight"
            ),
            "elec_part": _L(
                "screen|camera|sound|speaker|charger|battery|microphone|touchscreen|"
                "power button|charging port|volume button|headphone jack|display"
            ),
            "elec_feature": _L(
                "screen is bright and sharp|camera is excellent|sound is very clear|"
                "speaker is really loud|microphone is a bit muffled|touchscreen is very responsive|"
                "power button is hard to press|charging port is a little loose|display is crisp|"
                "speaker is too quiet|screen is a bit dim|camera is surprisingly good|"
                "volume button feels cheap|battery is okay but not great|sound is surprisingly good|"
                "screen scratches easily|touchscreen is a little laggy"
            ),
            "use": _L(
                "work|video calls|music|gaming|streaming shows|reading|navigation|"
                "school|podcasts|taking photos"
            ),
            "comparison": _L(
                "much faster|a lot lighter|way better|slightly worse|about the same|"
                "twice as fast|much quieter|a big upgrade"
            ),
        },
        "fixed": [
            "The battery lasts all day.",
            "The battery life is amazing.",
            "The screen is bright and easy to read.",
            "It charges really fast.",
            "The sound quality is great for the price.",
            "Setup was quick and easy.",
            "The camera takes great pictures even in low light.",
            "It pairs with my phone in seconds.",
            "The bluetooth connection drops every few minutes.",
            "The charging cable is too short.",
            "The battery drains way too fast.",
            "It stopped holding a charge after a month.",
            "The noise cancelling works really well on flights.",
            "It gets warm when it is charging.",
            "The case fits perfectly and all the buttons work.",
            "The screen cracked the first time I dropped it.",
            "Fast charging is a game changer.",
            "The sound is clear and the bass is strong.",
            "It does not work with my older phone.",
            "The app keeps crashing after the last update.",
            "I can charge my phone three times with it.",
            "The earbuds fall out when I run.",
        ],
        "templates": [
            "The battery lasts {battery_dur}.",
            "The {elec_feature}.",
            "I use the {device} every day for {use}.",
            "The {batt_device} charges fully in about {fewnum} hours.",
            "After {numword} {timeunit}, the {elec_part} stopped working.",
            "The {device} connects to my {device2} without any problems.",
            "Compared to my old {device}, this one is {comparison}.",
            "Overall the {elec_feature}.",
            "I bought this {device} for {use} and it works great.",
            "The battery on the {batt_device} lasts {battery_dur}.",
            "It took {numword} tries to pair the {device} with my {device2}.",
            "The {device} is {elec_cmp} than the one I had before.",
            "My {relative} uses this {device} for {use}.",
        ],
    },
    {
        "name": "kitchen",
        "genre": "review",
        "slots": {
            "kitchen_item": _L(
                "blender|coffee maker|toaster|air fryer|kettle|microwave|stand mixer|"
                "frying pan|knife set|rice cooker|slow cooker|pressure cooker|"
                "food processor|waffle maker|espresso machine|cutting board|dish rack|"
                "toaster oven|juicer|hand mixer"
            ),
            "food": _L(
                "smoothies|coffee|toast|french fries|rice|soup|pancakes|chicken wings|"
                "bread|pasta|eggs|stew|waffles|salsa|pizza|oatmeal|hummus|cookies"
            ),
            "cook_combo": _L(
                "kettle boils water|blender makes smoothies|air fryer makes french fries|"
                "rice cooker makes rice|toaster makes toast|coffee maker makes coffee|"
                "waffle maker makes waffles|slow cooker makes stew|espresso machine makes espresso|"
                "pressure cooker makes soup|air fryer makes chicken wings|"
                "stand mixer makes bread dough|food processor makes hummus|juicer makes fresh juice|"
                "toaster oven makes pizza|hand mixer makes cookie dough|frying pan makes pancakes"
            ),
            "use_combo": _L(
                "blender to make smoothies|coffee maker to make coffee|air fryer to make chicken wings|"
                "rice cooker to make rice|frying pan to make pancakes|slow cooker to make stew|"
                "food processor to make salsa|waffle maker to make waffles|kettle to make tea|"
                "juicer to make orange juice|stand mixer to make bread|toaster oven to make pizza|"
                "pressure cooker to make soup|espresso machine to make lattes|hand mixer to make cookies"
            ),
            "kitchen_part": _L(
                "lid|handle|bowl|blade|cord|base|control panel|nonstick coating|"
                "water tank|glass jar|filter|timer|basket"
            ),
            "kitchen_adj": _L(
                "easy to clean|a bit flimsy|very sturdy|hard to remove|dishwasher safe|"
                "well made|too small|a little wobbly|solid|cheap plastic"
            ),
            "comparative": _L("faster|quieter|easier to clean|smaller|more powerful|louder|cheaper"),
        },
        "fixed": [
            "It is very easy to clean.",
            "The coffee tastes great.",
            "It heats up quickly and cooks evenly.",
            "It takes up too much counter space.",
            "The nonstick coating started to peel after a few weeks.",
            "It is a bit loud but it gets the job done.",
            "It makes the best toast I have ever had.",
            "All the parts are dishwasher safe.",
            "The instructions were hard to follow.",
            "Perfect for a small kitchen.",
            "It boils water in less than two minutes.",
            "The blender crushes ice with no problem.",
            "My morning coffee has never been better.",
            "The food comes out crispy every time.",
            "It looks great on the counter.",
            "The handle gets hot, so be careful.",
            "It leaks a little from the bottom.",
            "Cleanup takes less than a minute.",
            "I use it almost every night for dinner.",
            "The knives are very sharp and well balanced.",
        ],
        "templates": [
            "The {cook_combo} in {fewnum} minutes.",
            "I use this {use_combo} every {daypart}.",
            "The {kitchen_part} is {kitchen_adj}.",
            "My {relative} loves the {food} I make with it.",
            "It is much {comparative} than my old {kitchen_item}.",
            "I use the {use_combo} almost every {day}.",
            "I make {food} and {food} with it every week.",
            "After {numword} {timeunit}, the {kitchen_part} broke.",
            "This {kitchen_item} is {comparative} than the one my {relative} has.",
            "Best {kitchen_item} I have ever owned.",
            "The {food} came out perfect on the first try.",
        ],
    },
    {
        "name": "clothing",
        "genre": "review",
        "slots": {
            "garment": _L(
                "shirt|jacket|dress|sweater|hoodie|coat|t shirt|skirt|blouse|"
                "raincoat|cardigan|swimsuit|vest|scarf|hat|belt|pajama top"
            ),
            "garment_pl": _L(
                "shoes|boots|sneakers|jeans|leggings|pants|sandals|socks|shorts|"
                "running shoes|slippers|gloves"
            ),
            "size": _L("medium|small|large|extra large|8|10|12|9|10 and a half|extra small|7"),
            "fit": _L(
                "perfectly|a little tight|a bit loose|true to size|great|too big|"
                "snug in the shoulders|long in the sleeves"
            ),
            "cloth_adj": _L(
                "soft|warm|comfortable|lightweight|stretchy|thick|breathable|itchy|"
                "well made|flattering|thin|cozy|stylish"
            ),
            "color_desc": _L("darker|lighter|brighter|more blue|more gray|less vibrant|warmer"),
            "occasion": _L(
                "a wedding|work|a job interview|a party|the office|a concert|dinner|"
                "a hike|church|a family reunion"
            ),
            "material": _L("fabric|cotton|wool|leather|material|lining|denim|fleece"),
            "feel": _L(
                "soft and smooth|a bit rough|cheap|very durable|warm and cozy|thin but nice|"
                "heavy and solid|silky"
            ),
            "wash_result": _L(
                "still looks new|faded a little|shrank a lot|started to pill|"
                "lost its shape|came out fine"
            ),
        },
        "fixed": [
            "It fits true to size.",
            "The material is soft and comfortable.",
            "I would order one size up.",
            "The color is exactly as pictured.",
            "These shoes are comfortable right out of the box.",
            "The fabric is thinner than I expected.",
            "It shrank a little after the first wash.",
            "The stitching came apart after a few weeks.",
            "Runs a bit small, so order a size larger.",
            "I get compliments every time I wear it.",
            "The sleeves are a little too long.",
            "I bought it in three different colors.",
            "It keeps me warm even on the coldest days.",
            "The zipper broke the second time I wore it.",
            "It looks much more expensive than it is.",
            "The pockets are deep enough for my phone.",
            "It is see through in bright light.",
            "I can wear these all day without any pain.",
            "It washes well and does not wrinkle.",
            "The fit is perfect for my body type.",
        ],
        "templates": [
            "I ordered a size {size} and it fits {fit}.",
            "The {garment} is {cloth_adj} and {cloth_adj}.",
            "The color is {color_desc} than in the picture.",
            "I wore these {garment_pl} to {occasion} and got lots of compliments.",
            "The {material} feels {feel}.",
            "After {numword} washes, the {garment} {wash_result}.",
            "I usually wear a size {size} and this one fits {fit}.",
            "These {garment_pl} are {cloth_adj} but run a little small.",
            "I bought this {garment} for {occasion} and it was perfect.",
            "My {relative} loves this {garment}.",
            "The {garment_pl} are {cloth_adj} and {cloth_adj}.",
            "I wear this {garment} to {occasion} all the time.",
        ],
    },
    {
        "name": "shipping",
        "genre": "review",
        "slots": {
            "arrival": _L(
                "two days early|a week late|on time|in perfect condition|with a damaged box|"
                "a day early|much later than promised|the next day|in just two days"
            ),
            "drop_place": _L(
                "front door|neighbor's house|back porch|mailbox|building lobby|garage|"
                "mail room|side gate"
            ),
            "box_state": _L(
                "crushed|wet|torn open|dented|soaked from the rain|held together with tape"
            ),
            "missing_part": _L(
                "screws|power cord|manual|remote|second piece|charger|lid|mounting bracket"
            ),
            "carrier_word": _L("courier|driver|delivery guy|post office|carrier|mail carrier"),
        },
        "fixed": [
            "Arrived on time and works as described.",
            "Arrived quickly and well packaged.",
            "Shipping was fast.",
            "The package arrived earlier than expected.",
            "The box was damaged but the item was fine.",
            "It took almost three weeks to arrive.",
            "The tracking information was never updated.",
            "Some parts were missing from the box.",
            "It was delivered to the wrong address.",
            "Fast shipping and great communication from the seller.",
            "The item was exactly as described.",
            "It came well packed with plenty of bubble wrap.",
            "The package was left out in the rain.",
            "Delivery was two days later than promised.",
            "It arrived in the original packaging.",
            "The item looked used when it arrived.",
            "It showed up a day early.",
            "The package said delivered but I never got it.",
            "Free shipping and it arrived the next day.",
            "Everything was packed very carefully.",
        ],
        "templates": [
            "My order arrived {arrival}.",
            "I ordered it on {day} and it arrived on {day}.",
            "The tracking number {orderno} did not work for {numword} days.",
            "The package was left at my {drop_place}.",
            "It took {numword} {timeunit} to arrive.",
            "The box was {box_state} but the {item_generic} inside was fine.",
            "Order {orderno} was missing the {missing_part}.",
            "The {carrier_word} left it at the {drop_place}.",
            "It arrived {arrival}, which was a nice surprise.",
            "My package got stuck in {city} for {numword} days.",
            "The box arrived {box_state} and the {missing_part} was missing.",
            "The {carrier_word} called me before delivering it.",
        ],
    },
    {
        "name": "service",
        "genre": "review",
        "slots": {
            "problem": _L(
                "missing part|broken screen|wrong size|late delivery|billing error|"
                "damaged box|wrong color|refund|warranty claim|faulty charger|"
                "double charge|defective unit"
            ),
            "cs_response": _L(
                "fixed it right away|sent a new one|refunded me the same day|"
                "never replied|were very polite|told me to wait another week|"
                "offered a discount|asked for photos and then sent a replacement"
            ),
            "cs_adj": _L(
                "very helpful|friendly and patient|super quick|not helpful at all|"
                "polite but slow|amazing|rude|knowledgeable"
            ),
            "agent_channel": _L("phone|chat|call|live chat"),
            "contact": _L("chat|phone|email|the website|the app|the contact form"),
        },
        "fixed": [
            "Customer service was very helpful.",
            "The customer service team was friendly and quick to respond.",
            "They sent me a replacement right away.",
            "I got a full refund with no questions asked.",
            "I have emailed them three times and never got a reply.",
            "The return process was easy.",
            "The seller was very responsive.",
            "It was a hassle to return.",
            "Support fixed the problem in one call.",
            "Good to know that the company stands behind its products.",
            "The warranty process was quick and painless.",
            "Nobody answers the phone at their support line.",
            "They refused to give me a refund.",
            "The seller sent a handwritten thank you note.",
            "They replied within an hour on a Sunday.",
            "I had to ship it back at my own cost.",
            "Great customer service makes all the difference.",
            "They went above and beyond to help me.",
            "I was on hold for over an hour.",
            "They followed up to make sure everything was okay.",
        ],
        "templates": [
            "I contacted customer service about the {problem} and they {cs_response}.",
            "{first} from the support team was {cs_adj}.",
            "I waited on hold for {numword} minutes.",
            "They sent me a replacement within {fewnum} days.",
            "I asked for a refund on {day} and still have not heard back.",
            "The seller replied to my message within {numword} hours.",
            "I reached support by {contact} and they {cs_response}.",
            "The agent on the {agent_channel} was {cs_adj}.",
            "I had a {problem} and the seller {cs_response}.",
            "Support was {cs_adj} when I reported the {problem}.",
            "Thanks to {first} for sorting out my {problem}.",
            "I opened a ticket about the {problem} {numword} {timeunit} ago.",
        ],
    },
    {
        "name": "books",
        "genre": "review",
        "slots": {
            "book_b": _L(
                "book|novel|audiobook|cookbook|memoir|thriller|biography|comic|"
                "poetry collection|short story collection"
            ),
            "album": _L("album|record|soundtrack|box set|live album|debut album|vinyl"),
            "book_part": _L(
                "story|ending|plot|writing|main character|first chapter|narration|"
                "dialogue|pacing|cover art|world building|final chapter"
            ),
            "music_part": _L(
                "lyrics|melody|last song|vocals|production|guitar work|opening track|"
                "piano part|chorus|sound mix"
            ),
            "book_adj": _L(
                "beautiful|gripping|slow|brilliant|confusing|moving|predictable|funny|"
                "haunting|clever|dull|heartbreaking|catchy"
            ),
            "genre_m": _L(
                "jazz|classical music|rock|folk music|country music|hip hop|blues|"
                "piano music|indie pop|soul|opera|film scores"
            ),
            "genre_b": _L(
                "mysteries|historical fiction|science fiction|fantasy|romance|"
                "true crime|short stories|poetry|thrillers|cozy mysteries|biographies"
            ),
            "nth": _L("first|second|third|last|fifth|opening|title|closing"),
        },
        "fixed": [
            "I could not put this book down.",
            "The characters are well written.",
            "The ending was a bit disappointing.",
            "The story kept me hooked from start to finish.",
            "This album gets better every time I listen to it.",
            "I have listened to it on repeat all week.",
            "The narrator has a wonderful voice.",
            "It is a great book for a long flight.",
            "I can't wait for the next book in the series.",
            "The first few chapters were slow.",
            "The sound quality on the record is excellent.",
            "I read it in one sitting.",
            "The recipes are easy to follow.",
            "It made me laugh and cry.",
            "The songs are catchy and the lyrics are clever.",
            "It is one of the best books I have read this year.",
            "The print is too small to read comfortably.",
            "I have already recommended it to all my friends.",
            "The pages were bent when it arrived.",
            "It is a must read for any fan of the genre.",
        ],
        "templates": [
            "The {book_part} of this {book_b} is {book_adj}.",
            "I read this {book_b} in {fewnum} days.",
            "I bought this {album} for my {relative}, who loves {genre_m}.",
            "The {nth} track is my favorite.",
            "If you like {genre_b}, you will love this {book_b}.",
            "The author does a great job with the {book_part}.",
            "The {music_part} is {book_adj} and the {music_part} is {book_adj}.",
            "I listen to {genre_m} every day and this {album} is one of my favorites.",
            "The {music_part} on this {album} is {book_adj}.",
            "My {relative} and I read this {book_b} together.",
            "This {book_b} is {book_adj} from the first page.",
            "I usually read {genre_b}, but this {book_b} surprised me.",
            "The {nth} chapter is {book_adj}.",
        ],
    },
    {
        "name": "fitness",
        "genre": "review",
        "slots": {
            "fit_item": _L(
                "yoga mat|set of dumbbells|set of resistance bands|fitness tracker|water bottle|"
                "kettlebell|jump rope|foam roller|treadmill|exercise bike|pull up bar|"
                "running belt|gym bag|ab roller|pair of workout gloves|rowing machine|weight bench"
            ),
            "workout": _L(
                "morning run|yoga|home workout|stretching|weight training|cardio|"
                "pilates|spin class|circuit training|marathon training|evening walk"
            ),
            "fit_adj": _L(
                "sturdy|thick and grippy|a bit slippery|compact|heavy duty|easy to store|"
                "lightweight|well padded|wobbly|solid"
            ),
            "fit_progress": _L(
                "run five miles|do ten push ups|touch my toes|see a difference|"
                "lift heavier weights|hold a plank for two minutes|climb the stairs without stopping"
            ),
            "period": _L("week|day|month"),
            "accuracy": _L(
                "very accurately|pretty well|most of the time|better than my old one|"
                "only sometimes|with a small delay"
            ),
        },
        "fixed": [
            "Perfect for home workouts.",
            "It does not slip even when I sweat.",
            "I use it every morning before work.",
            "It tracks my steps and sleep very accurately.",
            "The weights are solid and easy to grip.",
            "It helped me stay motivated to exercise.",
            "I have lost ten pounds since I started using it.",
            "Great for yoga and stretching.",
            "The bands snapped after two weeks of use.",
            "It folds up and fits under the bed.",
            "My back feels so much better after using it.",
            "The heart rate monitor is not very accurate.",
            "It is quiet enough to use while the baby sleeps.",
            "I take it to the gym every day.",
            "The mat is thick enough for my knees.",
            "Assembly took about an hour.",
            "It keeps my water cold all day.",
            "I finally ran my first half marathon.",
            "It is a great way to stay active at home.",
            "The app syncs with my phone without any problems.",
        ],
        "templates": [
            "I use the {fit_item} for my {workout} every {day}.",
            "After {numword} weeks I can already {fit_progress}.",
            "The {fit_item} is {fit_adj}.",
            "I run about {numword} miles a {period} with these.",
            "The tracker counts my steps and heart rate {accuracy}.",
            "This {fit_item} is {fit_adj} and {fit_adj}.",
            "I bought the {fit_item} for {workout} at home.",
            "My {relative} and I share the {fit_item} for our {workout}.",
            "I do {workout} {fewnum} times a {period} with this {fit_item}.",
            "The {fit_item} made my {workout} so much easier.",
            "I can {fit_progress} now thanks to this {fit_item}.",
        ],
    },
]

_GENRE_TOPICS = {
    g: [i for i, t in enumerate(_TOPICS) if t["genre"] == g] for g in ("email", "review")
}
_N_TOPICS = len(_TOPICS)

# Dirichlet base measures (relative topic popularity) and genre mix.
_TOPIC_BASE = {
    False: {
        "meetings": 1.3, "invoices": 1.0, "travel": 0.8, "family": 1.0, "projects": 1.3,
        "phones": 1.3, "kitchen": 1.0, "clothing": 1.0, "shipping": 1.0, "service": 0.9,
        "books": 0.7, "fitness": 0.7,
    },
    True: {
        "meetings": 0.7, "invoices": 0.5, "travel": 1.3, "family": 1.6, "projects": 0.6,
        "phones": 1.0, "kitchen": 0.8, "clothing": 1.4, "shipping": 0.7, "service": 0.6,
        "books": 1.5, "fitness": 1.3,
    },
}
_P_REVIEW = {False: 0.40, True: 0.70}  # probability a user's main genre is "review"
_ALPHA = 0.45  # Dirichlet concentration per unit of base measure (sparse mixtures)
_P_MAIN_GENRE = 85  # percent of a user's documents written in their main genre
_P_OFF_TOPIC = 12  # percent of sentences drawn from another topic of the user

# Public-only additions (the "few extra" phrases and values of the shift).
_PUBLIC_EXTRA_FIXED = {
    "email": [
        "Quick reminder about tomorrow.",
        "Sending this again in case it got lost.",
        "Happy Friday everyone!",
    ],
    "review": [
        "This thing is awesome.",
        "Totally worth it.",
        "My go to for everyday use.",
        "Honestly the best purchase I made this year.",
        "Not bad at all for the price.",
    ],
    "books": ["The audiobook version is even better.", "A true page turner."],
    "fitness": ["My new favorite piece of home gym equipment.", "Great for beginners."],
    "clothing": ["Super cute and comfy.", "The fit is very flattering."],
    "family": ["The grandkids had a blast.", "We are planning a road trip this summer."],
    "travel": ["The views from the plane were amazing.", "We rented a cabin by the lake."],
}
_PUBLIC_EXTRA_VALUES = {
    "device": ["gaming headset", "e reader", "action camera"],
    "kitchen_item": ["bread maker", "sous vide cooker"],
    "garment": ["windbreaker", "flannel shirt"],
    "book_b": ["graphic novel", "travel guide"],
    "fit_item": ["balance board", "massage gun"],
    "city": ["Kyoto", "Marrakesh", "Hanoi"],
    "first": ["Brooklyn", "Nova", "Kairo", "Zelda"],
    "place_fun": ["water park", "county fair"],
}

# ---------------------------------------------------------------------------
# Compilation of the banks into fast sampling tables.
# ---------------------------------------------------------------------------

_TOKEN_RE = re.compile(r"[a-z0-9']+")
_SLOT_RE = re.compile(r"\{(\w+)\}")
_ALLOWED_RE = re.compile(r"^[A-Za-z0-9', .!?]*$")
_WORDCH = re.compile(r"[A-Za-z0-9']")


class _T(tuple):
    """A compiled template: items are pieces, slot tables (lists) or _ME."""

    __slots__ = ()


class _MeMarker:
    __slots__ = ()


_ME = _MeMarker()  # the user's own first name (e-mail sign-off)


def _piece(display: str) -> tuple[str, tuple[str, ...]]:
    """A literal chunk of text with its (interned) lowercase tokens."""
    return (display, tuple(sys.intern(t) for t in _TOKEN_RE.findall(display.lower())))


def _zipf(n: int, s: float) -> np.ndarray:
    w = 1.0 / np.arange(1, n + 1, dtype=float) ** s
    return w / w.sum()


def _key_offset(key: str) -> int:
    return sum(ord(c) for c in key) % 9


def _table(options: list, weights: np.ndarray, size: int) -> list:
    """Expanded sampling table: option i appears ~weights[i]*size times (>= 1)."""
    w = np.asarray(weights, dtype=float)
    w = w / w.sum()
    counts = np.maximum(1, np.rint(w * size).astype(int))
    out: list = []
    for opt, c in zip(options, counts.tolist()):
        out.extend([opt] * c)
    return out


class _Bank:
    """Compiled phrase banks for the private (public=False) or public distribution."""

    def __init__(self, public: bool):
        self.public = public
        crng = np.random.default_rng(_TABLE_SEED + int(public))
        self._dyn = self._numeric_tables(crng)
        self._cache: dict[tuple[int, str], list] = {}
        self._stack: list[str] = []
        gscopes = {}
        for g, gb in _GENRES.items():
            gscopes[g] = [gb["slots"], _GLOBAL_SLOTS]
        self.genre_fixed = {}
        self.genre_tmpl = {}
        for g, gb in _GENRES.items():
            fixed = list(gb["fixed"])
            if public:
                fixed += _PUBLIC_EXTRA_FIXED.get(g, [])
            self.genre_fixed[g] = self._shifted(
                [self._compile_sentence(s, gscopes[g]) for s in fixed], f"{g}.fixed", 0.9
            )
            self.genre_tmpl[g] = self._shifted(
                [self._compile_sentence(s, gscopes[g]) for s in gb["templates"]],
                f"{g}.templates",
                0.7,
            )
        self.greeting = self._compile_sentence(_GENRES["email"]["greeting"], gscopes["email"])
        self.signoff = self._compile_sentence(_GENRES["email"]["signoff"], gscopes["email"])
        self.names = self._resolve("first", gscopes["email"])
        # one sentence table per topic
        self.sent_tables: list[list] = []
        for t in _TOPICS:
            scope = [t["slots"], _GENRES[t["genre"]]["slots"], _GLOBAL_SLOTS]
            fixed = list(t["fixed"])
            if public:
                fixed += _PUBLIC_EXTRA_FIXED.get(t["name"], [])
            tf = self._shifted(
                [self._compile_sentence(s, scope) for s in fixed], f"{t['name']}.fixed", 0.9
            )
            tt = self._shifted(
                [self._compile_sentence(s, scope) for s in t["templates"]],
                f"{t['name']}.templates",
                0.6,
            )
            g = t["genre"]
            parts = [
                (tf, 0.34),
                (tt, 0.40),
                (self.genre_fixed[g], 0.17),
                (self.genre_tmpl[g], 0.09),
            ]
            opts: list = []
            ws: list[float] = []
            for (o, w), share in parts:
                opts.extend(o)
                ws.extend((np.asarray(w) * share).tolist())
            self.sent_tables.append(_table(opts, np.asarray(ws), 8192))

    # -- helpers -------------------------------------------------------------
    def _shifted(self, options: list, key: str, s: float) -> tuple[list, np.ndarray]:
        """Zipf weights over list order; in the public bank drop / re-weight some."""
        w = _zipf(len(options), s)
        if not self.public:
            return options, w
        off = _key_offset(key)
        # slot values lose a third of their items, phrase lists two ninths
        drop = (0, 2, 5) if key.startswith("slot.") else (0, 5)
        keep_o, keep_w = [], []
        for i, (o, wi) in enumerate(zip(options, w)):
            r = (i + off) % 9
            if i >= 1 and r in drop and len(options) >= 5:
                continue  # absent from the public distribution
            if r == 4:
                wi *= 0.3  # rarer
            elif r == 7:
                wi *= 2.0  # more popular
            keep_o.append(o)
            keep_w.append(wi)
        return keep_o, np.asarray(keep_w)

    def _numeric_tables(self, crng: np.random.Generator) -> dict[str, list]:
        def pieces(vals):
            return [_piece(str(v)) for v in vals]

        round_amounts = [
            50, 100, 250, 500, 120, 75, 1000, 200, 300, 150, 40, 80, 600, 1200, 2500,
            450, 90, 60, 800, 350, 30, 1500, 5000, 400, 20, 3000, 700, 175, 900, 2000,
        ]
        rnd = pieces(round_amounts)
        amounts = _table(rnd, _zipf(len(rnd), 1.0), 3000)
        amounts += pieces(crng.integers(12, 4800, size=2000).tolist())
        return {
            "invno": pieces(crng.integers(1000, 99999, size=20000).tolist()),
            "orderno": pieces(crng.integers(100000, 9999999, size=20000).tolist()),
            "amount": amounts,
            "dnum": _table(pieces(range(1, 32)), np.ones(31), 31),
            "roomno": pieces(crng.integers(100, 520, size=300).tolist()),
        }

    def _resolve(self, name: str, scope: list[dict]) -> list:
        if name in self._dyn:
            return self._dyn[name]
        for level, d in enumerate(scope):
            if name in d:
                key = (id(d), name)
                if key not in self._cache:
                    if name in self._stack:
                        raise ValueError(f"recursive slot {name}")
                    self._stack.append(name)
                    sub_scope = scope[level:]
                    vals = list(d[name])
                    for v in vals:
                        if any(c in v for c in ".!?"):
                            raise ValueError(f"slot value with sentence punctuation: {v!r}")
                    if self.public:
                        vals += _PUBLIC_EXTRA_VALUES.get(name, [])
                    opts = [self._compile(v, sub_scope) for v in vals]
                    s = 1.0 if name in ("first", "last", "city") else 0.8
                    opts, w = self._shifted(opts, "slot." + name, s)
                    self._cache[key] = _table(opts, w, max(1024, 6 * len(opts)))
                    self._stack.pop()
                return self._cache[key]
        raise KeyError(f"unknown slot {{{name}}}")

    def _compile(self, text: str, scope: list[dict]):
        """Compile a slot value: a plain piece, or a _T if it contains slots."""
        parts = _SLOT_RE.split(text)
        items: list = []
        for i, part in enumerate(parts):
            if i % 2 == 0:
                if not _ALLOWED_RE.match(part):
                    raise ValueError(f"bad characters in bank text {text!r}")
                if part:
                    items.append(_piece(part))
            else:
                # slots must not glue onto letters (tokens never span two items)
                before, after = parts[i - 1], parts[i + 1]
                if (before and _WORDCH.match(before[-1])) or (after and _WORDCH.match(after[0])):
                    raise ValueError(f"slot glued to a word in {text!r}")
                items.append(_ME if part == "me" else self._resolve(part, scope))
        if len(items) == 1 and type(items[0]) is tuple:
            return items[0]
        return _T(items)

    def _compile_sentence(self, text: str, scope: list[dict]) -> _T:
        if text[-1] not in ".!?" or any(c in text[:-1] for c in ".!?"):
            raise ValueError(f"sentence must end (only) with . ! or ?: {text!r}")
        c = self._compile(text, scope)
        return c if type(c) is _T else _T((c,))


@lru_cache(maxsize=2)
def _bank(public: bool) -> _Bank:
    return _Bank(public)


# ---------------------------------------------------------------------------
# Generation core
# ---------------------------------------------------------------------------


def _expand(t: _T, r, out: list, me) -> None:
    """Append the pieces of one realisation of template ``t`` to ``out``."""
    for it in t:
        tp = type(it)
        if tp is list:
            v = it[r() % len(it)]
            if type(v) is _T:
                _expand(v, r, out, me)
            else:
                out.append(v)
        elif it is _ME:
            out.append(me)
        else:
            out.append(it)


def _expand_tokens(t: _T, r, out: list, me) -> None:
    """Like _expand, but appends tokens directly (fast path)."""
    for it in t:
        tp = type(it)
        if tp is list:
            v = it[r() % len(it)]
            if type(v) is _T:
                _expand_tokens(v, r, out, me)
            else:
                out += v[1]
        elif it is _ME:
            out += me[1]
        else:
            out += it[1]


def _rand_stream(rng: np.random.Generator):
    while True:
        yield from rng.integers(0, 1 << 31, size=_RAND_CHUNK, dtype=np.int64).tolist()


def _int_table(weights: dict[int, float], size: int = 1000) -> list[int]:
    ks = sorted(weights)
    return _table(ks, np.array([weights[k] for k in ks]), size)


# documents per user (heavy-tailed over 2..8) and sentences per document by verbosity
_DOCS_W = {2: 0.30, 3: 0.22, 4: 0.15, 5: 0.11, 6: 0.09, 7: 0.07, 8: 0.06}
_SENT_W = [
    {2: 0.30, 3: 0.30, 4: 0.20, 5: 0.10, 6: 0.05, 7: 0.03, 8: 0.02},  # terse
    {2: 0.10, 3: 0.18, 4: 0.22, 5: 0.20, 6: 0.13, 7: 0.10, 8: 0.07},  # normal
    {2: 0.03, 3: 0.07, 4: 0.12, 5: 0.18, 6: 0.20, 7: 0.20, 8: 0.20},  # verbose
]
_VERB_TABLE = _int_table({0: 0.35, 1: 0.45, 2: 0.20})
_SENT_TABLES = [_int_table(w) for w in _SENT_W]


def _scaled_docs_table(scale: float) -> list[int]:
    if scale == 1.0:
        return _int_table(_DOCS_W)
    w: dict[int, float] = {}
    for k, p in _DOCS_W.items():
        kk = max(1, int(round(k * scale)))
        w[kk] = w.get(kk, 0.0) + p
    return _int_table(w)


class _UserStream:
    """Per-corpus random state: draws user parameters in fixed-size batches."""

    def __init__(self, seed: int, public: bool):
        ss = np.random.SeedSequence(int(seed))
        s_user, s_tok = ss.spawn(2)
        self.user_rng = np.random.default_rng(s_user)
        self.r = _rand_stream(np.random.default_rng(s_tok)).__next__
        self.public = public
        base = _TOPIC_BASE[public]
        self.alpha = {
            g: np.array([_ALPHA * base[_TOPICS[i]["name"]] * len(idx) for i in idx])
            for g, idx in _GENRE_TOPICS.items()
        }
        self._batch: list = []
        self._pos = 0

    def mixtures(self):
        """(cumulative topic probs for email, for review) of the next user."""
        if self._pos >= len(self._batch):
            out = {}
            for g in ("email", "review"):
                x = self.user_rng.gamma(self.alpha[g], size=(_BATCH, len(self.alpha[g])))
                x += 1e-12
                c = np.cumsum(x / x.sum(axis=1, keepdims=True), axis=1)
                c[:, -1] = 2.0  # guard against rounding
                out[g] = c.tolist()
            self._batch = list(zip(out["email"], out["review"]))
            self._pos = 0
        m = self._batch[self._pos]
        self._pos += 1
        return m


_INV31 = 1.0 / (1 << 31)


def _gen_doc(bank: _Bank, r, main_review: bool, cums, n_sent: int, me, expand) -> tuple[str, list]:
    """One document: returns (genre, list of per-sentence outputs of ``expand``)."""
    review = main_review if r() % 100 < _P_MAIN_GENRE else not main_review
    genre = "review" if review else "email"
    idx = _GENRE_TOPICS[genre]
    cum = cums[1] if review else cums[0]
    topic = idx[bisect_right(cum, r() * _INV31)]
    sents = []
    body = n_sent
    greet = sign = False
    if not review:
        greet = r() % 100 < 70 and body >= 2
        body -= greet
        sign = r() % 100 < 60 and body >= 2
        body -= sign
    if greet:
        sents.append(expand(bank.greeting, r, me))
    tables = bank.sent_tables
    tab = tables[topic]
    used: set = set()
    for _ in range(body):
        for _try in range(4):  # a document rarely repeats a sentence template
            if r() % 100 < _P_OFF_TOPIC:
                t2 = tables[idx[bisect_right(cum, r() * _INV31)]]
                s = t2[r() % len(t2)]
            else:
                s = tab[r() % len(tab)]
            if id(s) not in used:
                break
        used.add(id(s))
        sents.append(expand(s, r, me))
    if sign:
        sents.append(expand(bank.signoff, r, me))
    return genre, sents


def _render_text(t: _T, r, me) -> str:
    out: list = []
    _expand(t, r, out, me)
    s = "".join(p[0] for p in out)
    return s[0].upper() + s[1:]


def _render_tokens(t: _T, r, me) -> list:
    out: list = []
    _expand_tokens(t, r, out, me)
    return out


# ---------------------------------------------------------------------------
# Public API
# ---------------------------------------------------------------------------


def generate_records(
    n_users: int, *, seed: int, public: bool = False, scale_docs: float = 1.0
) -> Iterator[dict]:
    """Stream the corpus: one dict ``{"user", "genre", "text"}`` per document.

    Users are contiguous; user ``i`` depends only on ``seed`` and users ``< i``.
    ``public=True`` gives the shifted "public" distribution.  ``scale_docs``
    multiplies the number of documents per user (default 2-8).
    """
    bank = _bank(bool(public))
    st = _UserStream(seed, bool(public))
    r = st.r
    p_review = int(round(_P_REVIEW[bool(public)] * 1000))
    docs_table = _scaled_docs_table(float(scale_docs))
    names = bank.names
    for u in range(int(n_users)):
        uid = f"u{u:06d}"
        cums = st.mixtures()
        main_review = r() % 1000 < p_review
        verb = _SENT_TABLES[_VERB_TABLE[r() % len(_VERB_TABLE)]]
        n_docs = docs_table[r() % len(docs_table)]
        me = names[r() % len(names)]
        for _ in range(n_docs):
            n_sent = verb[r() % len(verb)]
            genre, sents = _gen_doc(bank, r, main_review, cums, n_sent, me, _render_text)
            yield {"user": uid, "genre": genre, "text": " ".join(sents)}


def write_corpus(
    path: str, n_users: int, *, seed: int, public: bool = False, scale_docs: float = 1.0
) -> int:
    """Write ``generate_records(...)`` as deterministic gzip'd JSON lines.

    Returns the number of documents written.
    """
    n = 0
    d = os.path.dirname(os.path.abspath(path))
    os.makedirs(d, exist_ok=True)
    tmp = path + ".tmp"
    with open(tmp, "wb") as raw:
        with gzip.GzipFile(filename="", mode="wb", fileobj=raw, mtime=0, compresslevel=9) as gz:
            buf: list[str] = []
            for rec in generate_records(n_users, seed=seed, public=public, scale_docs=scale_docs):
                buf.append(json.dumps(rec, ensure_ascii=True, separators=(", ", ": ")))
                n += 1
                if len(buf) >= 4096:
                    gz.write(("\n".join(buf) + "\n").encode("ascii"))
                    buf = []
            if buf:
                gz.write(("\n".join(buf) + "\n").encode("ascii"))
    os.replace(tmp, path)
    return n


def generate_token_users(
    n_users: int, *, seed: int, min_sentences: int = 3, max_sentences: int = 8,
    public: bool = False,
) -> list[list[list[str]]]:
    """The same distribution, already tokenised: one list of sentences per user.

    Each user gets between ``min_sentences`` and ``max_sentences`` sentences
    (heavy-tailed: most users near the minimum), taken from consecutive
    documents generated exactly as in ``generate_records``; every sentence is a
    list of lowercase tokens (shared, interned string objects).
    """
    if not (1 <= min_sentences <= max_sentences):
        raise ValueError("need 1 <= min_sentences <= max_sentences")
    bank = _bank(bool(public))
    st = _UserStream(seed, bool(public))
    r = st.r
    p_review = int(round(_P_REVIEW[bool(public)] * 1000))
    span = max_sentences - min_sentences + 1
    nsent_table = _int_table(
        {min_sentences + k: 1.0 / (k + 1.5) for k in range(span)}, size=max(1000, 20 * span)
    )
    names = bank.names
    render = _render_tokens
    users: list = []
    append = users.append
    # millions of small lists: the cyclic GC would rescan them over and over
    gc_was_enabled = gc.isenabled()
    gc.disable()
    try:
        _fill_token_users(
            int(n_users), st, r, bank, p_review, nsent_table, names, render, append
        )
    finally:
        if gc_was_enabled:
            gc.enable()
    return users


def _fill_token_users(n_users, st, r, bank, p_review, nsent_table, names, render, append):
    for _ in range(n_users):
        cums = st.mixtures()
        main_review = r() % 1000 < p_review
        verb = _SENT_TABLES[_VERB_TABLE[r() % len(_VERB_TABLE)]]
        me = names[r() % len(names)]
        left = nsent_table[r() % len(nsent_table)]
        sents: list = []
        while left > 0:
            k = verb[r() % len(verb)]
            if k > left:
                k = left
            _, s = _gen_doc(bank, r, main_review, cums, k, me, render)
            sents += s
            left -= k
        append(sents)


def tokenize_text(text: str) -> list[list[str]]:
    """Reference tokenisation: lowercase, split at . ! ?, tokens = [a-z0-9']+.

    Empty sentences are dropped.  (The project's real tokenizer lives in dpcore.)
    """
    out = []
    for s in re.split(r"[.!?]", text.lower()):
        toks = _TOKEN_RE.findall(s)
        if toks:
            out.append(toks)
    return out


def read_corpus(path: str) -> Iterator[dict]:
    """Read a corpus written by ``write_corpus`` (helper for checks and tests)."""
    with gzip.open(path, "rt", encoding="ascii") as f:
        for line in f:
            if line.strip():
                yield json.loads(line)


# ---------------------------------------------------------------------------
# CLI
# ---------------------------------------------------------------------------


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        prog="python -m sample_data.generate",
        description="Write the shipped sample corpora (no arguments) or a corpus of any size.",
    )
    ap.add_argument("--users", type=int, help="number of users (requires --out)")
    ap.add_argument("--out", help="output path (.jsonl.gz)")
    ap.add_argument("--public", action="store_true", help="use the shifted public distribution")
    ap.add_argument("--seed", type=int, help="seed (default: the shipped private/public seed)")
    ap.add_argument("--scale-docs", type=float, default=1.0, help="documents-per-user factor")
    a = ap.parse_args(argv)
    if a.users is None and a.out is None:
        for path, n, seed, pub in (
            (PRIVATE_PATH, PRIVATE_USERS, PRIVATE_SEED, False),
            (PUBLIC_PATH, PUBLIC_USERS, PUBLIC_SEED, True),
        ):
            docs = write_corpus(path, n, seed=seed, public=pub)
            print(f"{path}: {n} users, {docs} documents, {os.path.getsize(path)} bytes")
        return 0
    if a.users is None or a.out is None:
        ap.error("--users and --out go together")
    seed = a.seed if a.seed is not None else (PUBLIC_SEED if a.public else PRIVATE_SEED)
    docs = write_corpus(a.out, a.users, seed=seed, public=a.public, scale_docs=a.scale_docs)
    print(f"{a.out}: {a.users} users, {docs} documents, {os.path.getsize(a.out)} bytes")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
