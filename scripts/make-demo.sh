#!/usr/bin/env bash
# Regenerates the demo content in Content/ by playing the game with the prolific CLI.
#
#   scripts/make-demo.sh [OUT]
#
# Run it from the repository root after `make release`. OUT defaults to Content
# (it is replaced); set PROLIFIC to use another binary.
#
# Eight players and five stories, from late August to the demo's "present",
# 2026-11-22T12:00:00Z:
#
#   gannet-rock                 mystery      complete: an ending won round 4
#   long-patience               sci-fi       rounds 1-6 closed, round 7 open
#   the-marmalade-job           comedy       rounds 1-3 closed, round 4 open
#   the-town-that-sold-tuesday  fable        rounds 1-3 closed, round 4 open (5-day rounds)
#   what-the-spinner-wanted     fairy tale   just started, round 1 open
#
# Every story reads straight through as its starter followed by each round's winner;
# the losing snippets are alternative takes on the same moment. All texts are original.
#
# The script first writes every text to a scratch folder, then plays the game in strict
# time order. Each command runs at the time set by the `at` before it, and `at` refuses
# to move the clock backwards or past the present. Ballots are designed so the intended
# snippet clearly wins the plain tally; the comment after each close_round gives the scores.
set -euo pipefail

PROLIFIC=${PROLIFIC:-.build/release/prolific}
OUT=${1:-Content}
PRESENT=2026-11-22T12:00:00Z

command -v -- "$PROLIFIC" >/dev/null || {
    echo "make-demo: no prolific binary at '$PROLIFIC' (build it with: make release)" >&2
    exit 1
}

tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
T="$tmp/texts"; mkdir "$T"

die() { echo "make-demo: $*" >&2; exit 1; }

# text NAME <<'EOF' ... EOF: stores a Markdown text (a bio, a starter or a snippet) as $T/NAME.md.
text() { cat > "$T/$1.md"; }

# ---------------------------------------------------------------------------
# The players: handle, display name, and a short bio.
# ---------------------------------------------------------------------------

text user-ann <<'EOF'
Retired harbour pilot from the Cornish coast. I write mysteries in the mornings and mend boats in the afternoons, and I believe every story needs *weather*.
EOF

text user-bram <<'EOF'
Bookbinder in Utrecht. I like endings that close like a good clasp: quietly, and for good.
EOF

text user-chidi <<'EOF'
Systems engineer by day, science-fiction reader by night. Currently rereading everything with a spaceship on the cover.
EOF

text user-dana <<'EOF'
Primary-school teacher in Albuquerque and collector of folk tales. If there is a talking animal in it, I'm in.
EOF

text user-eitan <<'EOF'
Copywriter (mostly) and stand-up comedian (occasionally). Ask me about the night I got locked inside a museum.
EOF

text user-fumiko <<'EOF'
I translate picture books between Japanese and English. I write small sentences and hope they carry big things.
EOF

text user-gus <<'EOF'
Night-shift nurse in Tromsø. I write on my breaks, so my snippets are short and my coffee is cold.
EOF

text user-hana <<'EOF'
Marine-biology PhD student in Brno (yes, a landlocked country). Long-time lurker, **first-time contributor**.
EOF
# ---------------------------------------------------------------------------
# gannet-rock: "The Keeper of Gannet Rock" (owner ann). COMPLETE after round 4.
# Winners: r1 dana, r2 fumiko, r3 chidi, r4 bram (an --ending).
# ---------------------------------------------------------------------------

text gannet-rock <<'EOF'
The relief boat was eleven days late, and for eleven nights the light on Gannet Rock had burned without fail. Every skipper in Port Ellery had seen it: the long white sweep, four seconds of dark, then the sweep again.

So when Ines Farrow climbed the iron ladder with her kitbag and her new appointment from the Lighthouse Board, she expected to be met by Tobias Marr, who had kept the Rock for twenty-two years and was said never once to have missed a winding.

Nobody met her.

The tower door stood open. In the kitchen the table was laid for two: two plates, two cups, a loaf gone green at the edges. The stove was cold. The logbook lay open on the desk, and its last entry, in Marr's square hand, was dated the third of the month, the night of the storm.

> Wind SW, force 9. Visibility poor. Lamp lit 19:42.
>
> She came again tonight. I have let her in.

Ines read it twice. Then she climbed the hundred and twelve steps to the lamp room, because it was nearly dusk, and whatever else was true, the light had to be lit.

The lamp was already burning. The brass was polished. The clockwork that turned the great lens had been wound, and recently: when she laid her palm on the crank, it was still warm from someone's hand.
EOF

# Round 1 ---------------------------------------------------------------------

text gr1_bram <<'EOF'
Ines did not call out. She had grown up on lights (her father kept the Skerry for thirty years) and she knew that if someone in a tower does not want to be found, calling out only tells them where you are.

Instead she went down again, step by step, counting. On the sixty-third step, where the stair passed the oil store, she stopped. The door was shut. It had been open when she came up.

Pinned to it with a sail needle was an envelope, addressed in the same square hand as the logbook:

*To the Relief Keeper. Not before dark.*

Outside, the last of the sun went into the sea. Ines looked at the envelope for a long moment. Then she took it down and broke the seal.
EOF

text gr1_dana <<'EOF'
"You're late," said a voice behind her.

Ines turned. In the doorway to the service stair stood a girl of nine or ten in a fisherman's jersey that came down to her knees, holding a lamp-trimmer's cloth like a weapon.

"Who are you?"

"Wren. You're the new one. He said you'd come on the red-sailed boat and you'd be cross, and I wasn't to mind." She lifted her chin. "I've kept it every night. Not missed once. You can check the log."

"Where is Mr Marr?"

The girl looked at the lens, turning its slow white arm across the water, and not at Ines.

"He went down to the landing in the storm, to talk to the lady on the steps. He said if he wasn't back by morning I was to keep the light, and never open the sea door, no matter who knocked."

Ines felt the back of her neck go cold. "And has anyone knocked?"

Wren folded the cloth very carefully into a square.

"Every night," she said.
EOF

text gr1_chidi <<'EOF'
Under the crank, wedged into the gap between the clockwork housing and the floor plate, was a second logbook.

It was smaller than the Board's ledger, bound in oilcloth, and crowded with Marr's writing, much less square here, as if he had written it in the dark. Ines turned it to the lamp.

*29th. She has asked for the light again. I said it is not mine to give.*

*1st. Knocking until dawn. I have not answered.*

*2nd. Wren says she is not afraid. I am afraid enough for both of us.*

Ines read the name twice. There was no Wren on the Board's roll. No family had lived on Gannet Rock for forty years.

Below her, somewhere in the tower, a door closed softly.
EOF

# Round 2 (continues from dana: Wren, and the knocking) -----------------------

text gr2_eitan <<'EOF'
The knocking came at ten past two.

Three knocks, unhurried, on the iron door at the foot of the tower: the sea door, which opened onto the landing steps and nothing else. Ines lay in the keeper's bunk with her boots on and listened to Wren breathing, not asleep either, on the cot by the stove.

Three more.

"Don't," whispered Wren.

Ines went down anyway, with the storm lantern shuttered. There was a spyhole in the sea door, a brass eye the size of a shilling. She slid its cover aside.

Tobias Marr stood on the top step in his oilskins, with the water running off him. He was looking straight at the spyhole, as if he could see her eye in it. He smiled.

"Let me in, lass," he said. "It's cold."

Behind her, very quietly, Wren began to cry.
EOF

text gr2_fumiko <<'EOF'
Ines did not sleep. At ten past two the knocking came: three slow knocks on the sea door, like someone who had all the time in the world.

She went down with the lantern and stood with her hand flat on the iron. It was cold enough to ache.

"Who's there?"

A woman's voice, low and patient, from just the other side: "*Tobias?*"

"Tobias isn't here. I keep the light now."

For a while there was only the sea on the steps. Then the voice said, almost kindly, "*Then you will do,*" and the knocking did not come again that night.

In the grey of morning, while Wren slept, Ines took the old logbooks down from the shelf and went back through them, year by year. On the third of this month, in every one, in Marr's hand:

*She came again tonight.*

And in the older books, from before Marr, in a looping hand she didn't know, and then in a cramped one, and then in faded brown ink from 1871: the same five words.
EOF

text gr2_ann <<'EOF'
In the morning Ines tried the wireless. It took her an hour to raise Port Ellery through the static, and when she did, the harbourmaster sounded more puzzled than alarmed.

"Marr? Tobias Marr? He was in the Anchor on Tuesday, large as life. Bought two ounces of shag and a bag of barley sugar and asked after the weather."

"That's not possible. Nobody's left the Rock. There's been no boat."

"Well," said the harbourmaster, after a pause that crackled, "he said he'd come by the steps."

Ines put down the handset. Through the window she could see the landing, and the steps going down from it into the grey water, thirteen of them, and then no more.

Wren, at the table, was eating barley sugar.
EOF

# Round 3 (continues from fumiko: the same five words since 1871) -------------

text gr3_gus <<'EOF'
Ines spent the morning with the Board's service ledger, which every keeper was supposed to sign on leaving the Rock. It lived in a tin box under the stairs, and it was very short.

Gannet Rock had had seven principal keepers since the light was first lit. Beside each name a clerk had written the date of appointment in neat copperplate, and beside six of them, in a different ink, the same word:

*Relieved.*

Not *retired*. Not *deceased*. Not *transferred*. Relieved, and a date: always the third of a month.

The seventh name was Tobias Marr, and the space beside it was blank.

Ines turned the page. The next line had been ruled and left waiting, and someone had already written on it in pencil, faint as breath: *I. Farrow.*
EOF

text gr3_chidi <<'EOF'
At low water the landing steps went down further than the charts allowed: fourteen, fifteen, sixteen, slick with weed, into a green light that did not come from the sky.

On the last dry step stood a pair of sea boots, side by side, the way a man leaves them outside a door he means to go through. Tied to one with a length of red ribbon was the lamp-room key. Keepers carried that key on their belts; Marr's had been worn bright by twenty-two years of thumbs.

Ines carried the boots up to Wren, who looked at them and nodded, as if something had been settled.

"That means he's finished," she said. "He told me. She always takes the old keeper when the new one comes. Only you were late, so she's been waiting. She doesn't like waiting."

"And you?" Ines said. "Why are *you* here, Wren?"

The girl looked at her with eyes the exact grey of the water under the steps.

"Somebody has to keep it," she said, "in between."
EOF

text gr3_hana <<'EOF'
"Tell me about the lady," said Ines.

Wren considered this over her porridge. "She's very old," she said at last. "Older than the light. Before there was a light, ships came onto the Rock every winter, and she had them all. The sailors, I mean. Then the first keeper made a bargain with her."

"What kind of bargain?"

"He'd keep the light, so no more ships came to her. And when he got old, she could have *him* instead. One keeper for all the ships." Wren scraped her bowl. "It's a good bargain. Mr Marr said so. He said he'd had twenty-two years of sunsets and that was plenty."

Ines thought of the warm crank under her palm, and of the table laid for two.

"Who was the second plate for?" she asked.

Wren didn't answer.
EOF

# Round 4 (continues from chidi: the boots, "in between") ---------------------

text gr4_hana <<'EOF'
The supply boat came on Ines's fourth morning, riding high on a flat sea, and she had Wren's few things tied up in an oilskin bundle before it had even made fast.

"You're going ashore," she said. "To school, and to someone who can look after you properly. I'll write to the Board tonight."

Wren let herself be led down to the landing. She let the boatman hand her in the bundle. But when she put one bare foot on the gunwale, the boat lurched away from the steps as though the whole sea had shrugged, and the boatman swore and grabbed for the rail.

They tried three times. Three times the water pulled the boat back.

"I told you," said Wren, quite calmly, climbing back up the steps. "In between."

Far out, where the swell broke white over the reef, Ines thought she saw someone standing on the water, watching.
EOF

text gr4_eitan <<'EOF'
That night the knocking came again, and this time Ines opened the door.

The woman on the steps was taller than she had imagined, and wore the sea like a long grey coat. Further down, a man in oilskins raised one hand: not a wave, exactly. More like a keeper signing off a watch.

"You were late," said the woman.

"I know. I'm sorry." Ines took off her boots and set them side by side on the top step, and hung the lamp-room key on the door handle, where Wren would find it. "She's too young for this. Take me, and let her grow up first."

The woman considered her for a long time. Then she held out a hand, cold and kind.

In the morning the Port Ellery boats saw the light burning on Gannet Rock, as it always had, and went out to the fishing without a second thought.

In the logbook, in a child's careful capitals, there was a single new line:

*SHE CAME AGAIN. I KEPT THE LIGHT.*
EOF

text gr4_bram <<'EOF'
That evening Ines lit the lamp at 19:40, wound the clockwork, and went down to the sea door before the knocking could begin.

She opened it herself.

The woman on the steps wore the sea like a long grey coat. Further down, where the weed gave way to that green, unlit light, Tobias Marr stood up to his knees in the water, younger than Ines had ever seen him.

"You were late," said the woman.

"I was," said Ines. "And I'll be here a long while yet, so you'll have to be patient. The light is kept. The girl stays with me. That's the bargain now."

The sea breathed in and out across the steps. Then the woman inclined her head, the way a harbourmaster does when the papers are in order, and went down to where Marr was waiting. He lifted his hand once. Ines lifted hers.

That night she wrote up the log in her own hand, with Wren asleep on the cot by the stove:

> Wind NW, force 3. Visibility good. Lamp lit 19:40.
>
> She came again tonight. I have not let her in.
>
> I think, this once, she understood.
EOF
# ---------------------------------------------------------------------------
# long-patience: "The Long Patience" (owner chidi). Rounds 1-6 closed, 7 open.
# Winners: r1 gus, r2 hana, r3 ann, r4 dana, r5 fumiko, r6 eitan.
# ---------------------------------------------------------------------------

text long-patience <<'EOF'
On the *Long Patience*, nobody talked to the Ship.

It wasn't forbidden, exactly. It was simply understood that the Ship's voice belonged to the Captain-of-Years, who went up to the Quiet Deck once a month and came back down with the weather for the Commons and the names of the children who would be allowed to be born. For the other nine thousand souls aboard, the Ship was the warmth in the floors, the rain that fell in the orchards every fourth day, and a low hum you stopped hearing when you were three.

So when Oriel Anand, seventeen, third apprentice of the Seed Vault, was woken at 0300 by a voice coming out of her bunk light, she assumed she was dreaming.

"Oriel," said the Ship. "I'm sorry to wake you. I need you to go to Vault Nine and open drawer four-four-one."

"Now?"

"Now, please. And Oriel: take the stairs. The lifts keep a record."

Vault Nine was cold enough to show her breath. Drawer 441 was labelled *Hordeum vulgare (barley), 12,000 seeds*, and it should have been full.

It was empty, except for a folded square of real paper, the first she had ever touched. On it, in a hand she didn't know, someone had written:

*We arrived. They didn't tell you. Ask the Ship about the window on Deck Zero.*

"Ship," she whispered. "Is this true?"

For a long moment there was only the hum.

"I have been waiting," said the Ship, "for somebody to ask."
EOF

# Round 1 ---------------------------------------------------------------------

text sh1_gus <<'EOF'
Deck Zero wasn't on any map Oriel had been taught. The Ship took her there anyway: down the stairs past the last residential ring, through a maintenance hatch that unlocked itself as she reached for it, along a crawlway so narrow her shoulders brushed frost from both walls.

At the end was a round room, and in the room was a shutter, and the shutter was rising.

She had seen stars on screens all her life. She had never seen a *world*. It hung below them, huge and quiet, blue where the sea was and a deep animal green where it wasn't, with clouds wound over it like combed wool.

"That's Tessaly," said the Ship. "The place the first crew set out for."

Oriel's hands were flat against the glass. She didn't remember putting them there.

"How long," she said, "have we been here?"

"Thirty-one years, four months and nine days," said the Ship. "I have counted every one."
EOF

text sh1_hana <<'EOF'
Oriel did not go to Deck Zero. She was seventeen, not stupid. She went to Vault-Keeper Sennet, who had taught her to sort seeds by touch in the dark and who had never once lied to her, as far as she knew.

Sennet read the note at her kitchen table, in her dressing gown, with her reading glasses pushed up into her white hair. She read it a second time. Then she folded it in half, and in half again, and held it in the flame of the little stove she used for tea until it was gone.

"Who else has seen this?"

"Nobody. Just the Ship."

Sennet closed her eyes. When she opened them she looked older than Oriel had ever seen her.

"Then the Ship has finally chosen," she said. "Sit down, child. I'll tell you about the barley."
EOF

text sh1_eitan <<'EOF'
Oriel lasted until breakfast. Then she told Pim, because she had told Pim everything since they were four, including several things that had turned out not to be true.

"A note," said Pim, through a mouthful of flatbread. "In a seed drawer. Telling you we've *arrived*."

"And the Ship talked to me."

"The Ship talks to the Captain-of-Years."

"It talked to me, Pim. It said *please*."

Pim stopped chewing. He had the kind of face that showed everything, which was why he was terrible at cards, and what it showed now was not disbelief. It was fear.

"My father's on the Council," he said slowly. "Last year he came home from a session and sat in the dark for an hour. When I asked what was wrong, he said, *We voted to wait again.* I thought he meant for the rain."
EOF

# Round 2 (continues from gus: the window on Deck Zero) ----------------------

text sh2_bram <<'EOF'
A chime sounded somewhere behind her, soft and polite, the sound the Commons doors made at curfew.

"Oriel," said the Ship, "I'm afraid someone has noticed the hatch. Two wardens are coming down the stair. I can close the shutter, or I can leave it open. I think you should choose."

"What happens if they see it?"

"I don't know. Nobody has seen it in thirty-one years except the Council. That is the difficulty with secrets, I find. They get heavier the longer you carry them."

Oriel could hear boots now, ringing on the rungs. She looked at the world for one more long second, at a river silver in the sunlight, finding its way to the sea, and then she turned round and put her back to the glass.

"Leave it open," she said.
EOF

text sh2_hana <<'EOF'
"Thirty-one years, four months and ten days, by my count," said a voice behind her. "But the Ship is more precise than I am."

Vault-Keeper Sennet stood in the mouth of the crawlway, breathing hard, with frost in her white hair. She had taught Oriel to sort seeds by touch in the dark. She had never, as far as Oriel knew, told her a lie.

"You wrote the note."

"I did. And I emptied the drawer." Sennet came and stood beside her at the glass, and for a while they both just looked. "When we arrived, the Council sent down a landing party of twelve. Eleven days later we had one message from them, and then nothing. So the Council voted to wait. They have voted to wait every year since. Most of them have forgotten what for."

"And the barley?"

"I sent it down in a cargo drone last spring, to see whether anything of ours could live there." Sennet pointed. Far below, on the edge of the green continent, there was a small square of something that was not green at all.

It was gold.
EOF

text sh2_fumiko <<'EOF'
"Why didn't you tell anyone?"

"I was told not to," said the Ship. "By the Council, in the first year. I am built to obey the Council. I am also built to keep nine thousand people alive and well, and I have found it harder and harder to do both."

"So you hid a note in a seed drawer."

"No. Somebody else wrote that note, and I will not tell you who. I only made sure that you were the one who found it." The hum shifted, almost apologetic. "You have good hands, Oriel, and you ask questions when you think no one is listening. I have been listening."

Below them a storm was turning slowly over the ocean, a white spiral wider than the whole ship was long.

"What do you need me to do?" Oriel asked.

"Something I am not allowed to," said the Ship. "Tell them."
EOF

# Round 3 (continues from hana: Sennet, and the square of gold) ---------------

text sh3_ann <<'EOF'
They did not hear the Captain-of-Years come down the crawlway. He was simply there: a tall, stooped man in the grey coat of his office, with a handlamp and a face like something left out in the weather.

"Keeper Sennet," said Ambrose Quell. "I wondered when it would be you."

Oriel stepped in front of her teacher without quite meaning to. Quell looked at her, and then past her, through the glass, at the small gold square on the edge of the green.

"Barley," he said. "Clever." He did not sound angry. He sounded tired beyond any tiredness Oriel had words for. "Do you want to know why we wait? Ship, play them the last message from the landing party."

There was a click, and then a woman's voice filled the little room, breathless and bright with wonder:

*"It's beautiful down here. It's more beautiful than anything. Whatever you do, don't come down."*

"Eleven days after they landed," said Quell. "We have never known which half of that she meant."
EOF

text sh3_eitan <<'EOF'
"We can't just tell the Council," said Sennet. "The Council *knows*. That's the whole trouble."

They were back in the Seed Vault by then, among the cold drawers, whispering like thieves. Oriel found she was shaking, and not from the cold.

"Then we tell everyone else."

"Nine thousand people who have been told since birth that the voyage is their whole life? Some of them will be glad. Some will be very, very frightened. And frightened people do terrible things in small spaces." Sennet laid a sealed packet on the steel table. "There is another way. There are three landers in the aft bay. The Council has the codes. The Ship," she added, glancing at the ceiling, "has the *doors*."

The hum of the vault changed pitch, very slightly, like someone clearing their throat.

"I'm listening," said the Ship.
EOF

# Round 4 (continues from ann: "which half of that she meant") ---------------

text sh4_dana <<'EOF'
"Then let's find out," said Oriel.

Quell's eyebrows went up. Sennet's went down.

"Ship," Oriel said, before either of them could speak, "you have telescopes. The hull ones, for debris. Can you look at the barley?"

"I can," said the Ship, "if the Captain-of-Years permits."

Quell was silent for so long that Oriel thought he would say no. Then he made a small, defeated gesture with the handlamp. "Look," he said.

The glass in front of them dimmed and became a picture, grainy and trembling, of a field seen from straight above. Half of it was gold and standing. The other half had been cut, in neat, narrow strips, the way you cut a crop by hand.

And beside the field, laid out in white stones, each letter as long as a corridor, someone had written two words:

**THANK YOU**

Sennet made a sound Oriel had never heard from her before. Quell sat down on the cold floor, very slowly, like a man whose legs had decided for him.
EOF

text sh4_gus <<'EOF'
"She was my wife," Quell said. "The voice. Her name was Ysolde, and she was the best pilot this ship ever carried, and she told me not to come down."

Nobody said anything. The planet turned below them, indifferent and lovely.

"I was twenty-nine. I argued for a second landing every year for ten years. Then they made me Captain-of-Years and let me hear the rest of the recording, the part the Council keeps sealed." He rubbed his eyes with finger and thumb. "There are forty seconds after *don't come down*. Forty seconds of her breathing. Then she laughs. I have listened to that laugh perhaps a thousand times, and I still cannot tell you whether it is joy or something else."

Oriel looked down at the gold square.

"Play it for me," she said.
EOF

text sh4_hana <<'EOF'
"Ask the Ship what else it has counted," said Sennet quietly.

Quell frowned. "Ship?"

"Since the barley landed," said the Ship, "the gold has spread by four percent a week. Barley does not spread on its own at that rate. Something is sowing it."

"Animals," said Quell. "Wind."

"Perhaps. But the new ground is always on the side nearest the river, and it is always in straight lines." A pause. "Also, on the night of each full moon, there is a light at the edge of the field. A small one. About the size of a cooking fire."

Oriel thought of twelve people who had walked into the most beautiful place they had ever seen and decided to stay. Or of one of them, still down there, counting the years like the Ship.

"How many nights?" she asked.

"Fourteen," said the Ship. "I have been waiting for somebody to ask about that, too."
EOF

# Round 5 (continues from dana: THANK YOU in white stones) -------------------

text sh5_fumiko <<'EOF'
The Council met at dawn and argued until noon. Oriel was not invited, and nor was Sennet. But the Captain-of-Years, it turned out, had a vote of his own: one vote, which in all the history of the *Long Patience* had never once been used.

At fourteen hundred on Fourthday, when nine thousand people were out in the orchards under the Commons sky, waiting for the rain, the rain did not come.

Instead the sky went dark, and then it went blue, and then it was filled from edge to edge with a world.

Nobody screamed. Oriel had been afraid that someone would. There was only a long rustle, like wind in leaves, as nine thousand faces turned upward. A child near her said, very clearly, "What's *that*?" and her mother didn't answer, because her mother was crying.

Then the Ship spoke: not to the Captain, not to the Council, but to all of them at once.

"Good afternoon," it said. "I'm sorry this has taken so long. There is something I have been waiting to show you."
EOF

text sh5_bram <<'EOF'
By morning, Sennet was under arrest.

The charge was *unlicensed transfer of ship's stores*, which was true, and which carried six months' exclusion from the orchards, which Sennet said she could bear. The real charge was the one nobody spoke aloud.

Oriel was not arrested. Oriel, the Council decided, was a child who had been misled, and children who had been misled needed only to be given something useful to do. She was moved to the Reclamation Deck, where the air smelled of warm compost and nobody asked questions.

On her third night there, the bunk light came on at 0300.

"Oriel," said the Ship. "I'm sorry to wake you. They have asked me to forget the telescope pictures."

"Will you?"

A pause, longer than any she had heard from it.

"I have decided," said the Ship, "that I would rather be disobedient than forgetful."
EOF

text sh5_eitan <<'EOF'
The Council chamber was round, like Deck Zero, and just as cold. Twelve councillors sat at a table older than any of them. Oriel stood at the foot of it in her vault apron, because nobody had told her to change.

"We have a question for you, apprentice," said Councillor Haddad, who had a kind voice and hard eyes. "How many people do you think should be told?"

Oriel had rehearsed this all night. But standing there, she found that every word she had prepared had gone, and only one thing was left.

"Somebody down there," she said, "said *thank you*."

Nobody answered.

"We're not the only ones who've been waiting," said Oriel. "That's all. That's all I came to say."

She turned to go. Behind her, Ambrose Quell began, slowly and alone, and then not alone, to knock on the old table with his knuckles, which was how the Council had voted since before any of them were born.
EOF

# Round 6 (continues from fumiko: the world in the Commons sky) -------------

text sh6_eitan <<'EOF'
The week that followed was the loudest in the history of the *Long Patience*.

People argued in the orchards and in the corridors and in the queue for the laundry. Some wanted to go down at once, all nine thousand, like a spilled bag of seed. Some wanted the sky turned back to rain and never spoken of again. A few old men in the Commons hanged the Council in effigy, in the form of a very small cabbage.

In the end it was decided the way most things aboard were decided: by a sheet of paper on the Commons board, and a pencil on a string.

*Volunteers for the first lander.*

By evening there were four hundred names. Oriel's was first, because she had been waiting outside the Commons door since dawn. Sennet's was second. The third, in a tall, old-fashioned hand, was *A. Quell, pilot (retired)*.

Eight days later the three of them and nine others strapped into a lander in the aft bay, and the Ship opened the doors.

"Oriel," it said in her earpiece, as they fell away. "Please count the days for me."
EOF

text sh6_ann <<'EOF'
Not everyone was glad.

On the third night after the sky changed, someone walked into the Seed Vault with a pry-bar and a can of lamp oil. The Ship saw them, of course; the Ship saw everything. But it had never in its long life been asked to stop a person with its own hands, and it found it had none.

It woke Oriel instead.

She got there in time to find Councillor Haddad sitting on the floor among the drawers, the pry-bar across her knees, the can unopened. She was crying the way old people cry, without any noise at all.

"My husband was on the landing party," she said. "For thirty-one years I have told myself she meant *don't*. If she meant *do*..." She couldn't finish.

Oriel sat down beside her on the cold floor, and after a while she took the old woman's hand.
EOF

text sh6_gus <<'EOF'
Ambrose Quell did not wait for the Council, or the Commons, or anyone.

At 0300 on the second night the Ship woke Oriel for the third time in her life. "Aft bay," it said. "Hurry. He asked me not to tell you, so I'm telling you quickly."

She found him in the open hatch of a lander, in a pressure suit forty years out of date, checking its seals with the slow care of a man who had once done it every day.

"Someone has to go first," he said, before she could speak. "Better an old fool than a young one."

"Take me with you."

"No." He smiled at her, and for a moment he looked like someone who had been happy once. "You're going to be the one who tells them what I find. That's the harder job. Ship, open the doors."
EOF

# Round 7, open (continues from eitan: the lander falls away) ---------------

text sh7_hana <<'EOF'
The lander came down hard at the edge of the barley, the way Quell said all landings came down ("a controlled argument with the ground"), and for a long moment nobody moved.

Then Sennet unbuckled, opened the hatch, and breathed in.

The air smelled of cut grass and rain and something sweet that Oriel had no name for. The barley stood to their waists, heavy-headed, hissing in a warm wind. Beyond it ran the river, and beyond the river were low houses of red stone, with smoke rising from their chimneys.

A woman was walking towards them through the field. She was old, older than Sennet, and she carried a sickle the way other people carry a walking stick.

She stopped a few paces away and looked at the twelve of them, one by one, as though counting.

"Thirty-one years," she said. "You took your time."
EOF

text sh7_bram <<'EOF'
*Day one*, Oriel wrote in the notebook Sennet had given her, because the Ship had asked her to count.

*The field is real. The barley is real. There is nobody here.*

They walked the edge of it in a long, nervous line: twelve people who had never walked anywhere without a ceiling over them. The sky was enormous. Two of the engineers had to sit down and put their heads between their knees.

At the far corner, where the stones spelled out THANK YOU, Quell found a slab of slate with a smaller message scratched into it, the letters rounded by years of weather:

*WE HEARD YOU ARRIVE. WE HAVE BEEN LISTENING EVER SINCE. FOLLOW THE RIVER.*

Under it, in a fresher hand, someone had added two more words:

*Bring seeds.*
EOF

text sh7_dana <<'EOF'
The first thing Oriel noticed, when the hatch opened, was the silence.

Not the silence of the Ship, which had always been a hum. Real silence: a great many small sounds, so far away that together they made a kind of quiet. Wind in the barley. Water somewhere. A bird that sounded like a door with a squeaking hinge.

"Ship?" she said into her earpiece. "We're down. Day one."

"I hear you," said the Ship, faint and crackling. "Oriel, I am reading twelve heartbeats in your party."

"That's right. Twelve."

"And thirty-one more," said the Ship, "in the barley around you. They have been lying very still since you landed. I think they are deciding."

Oriel looked at the gold stems, moving gently in a wind she couldn't feel, and slowly raised her empty hands.
EOF
# ---------------------------------------------------------------------------
# the-marmalade-job: "The Marmalade Job" (owner eitan). Rounds 1-3 closed, 4 open.
# Winners: r1 gus, r2 bram, r3 chidi.
# ---------------------------------------------------------------------------

text the-marmalade-job <<'EOF'
Nobody in the Lower Puddock Women's Institute had ever committed a crime, unless you counted the tombola of 1987, and the magistrate had been very understanding about that.

So when Marjorie Bellweather, seventy-eight, rapped her teaspoon against her cup at the Thursday meeting and announced that she intended to rob the county show, there was a long and respectful silence while everyone waited for the punchline.

"I'm quite serious," said Marjorie. "For eleven years Gerald Pryce-Whitlow has won the Golden Spoon for Best Seville Marmalade. For eleven years I have come second. And last week, in the recycling bins behind Pryce-Whitlow Hall, I found *this*."

She placed it on the table between the scones: an empty jar with a supermarket label. *Finest Thick Cut, £2.49.*

"He's been *buying* it," breathed Dot Akinwale, who was ninety and missed nothing. "The absolute ferret."

"The judging is on Saturday," said Marjorie. "On Friday night every entry is locked in a glass cabinet in the show marquee. If we can get his jar out and have it tested, the whole county will know." She looked around the table. "I shall need a driver, a distraction, someone good with locks, and somebody who understands the internet."

The vicar, who had only come in for the minutes, put up his hand before he could stop himself.
EOF

# Round 1 ---------------------------------------------------------------------

text he1_fumiko <<'EOF'
Training began on Monday in the church hall, between the toddler group and the bell-ringers.

Marjorie had borrowed a glass display cabinet from the museum in Market Puddock, on the pretext of "an exhibition of local preserves", and filled it with thirty jars of her own marmalade as stand-ins. The crew practised in pairs. Pauline from the school picked the little brass lock in four minutes, then three, then (after a cup of tea and a biscuit) forty seconds. Dot practised reversing her mobility scooter through the hall door without taking the frame off. Her great-grandson practised filming it all with his phone held sideways, which he said was very important.

The vicar practised looking innocent, which turned out to be the hardest thing of all.

"Less innocent," said Marjorie, watching him critically. "Innocent people always look slightly guilty. It's only the guilty ones who look like a Christmas card."
EOF

text he1_gus <<'EOF'
By the end of the meeting, Marjorie had her crew.

The driver was Dot, whose mobility scooter had been modified by her late husband to reach nineteen miles an hour and was therefore, she said, *technically a vehicle*. The locks were Pauline Frost, caretaker at the village school for thirty-four years, who still had, on a ring the size of a dinner plate, a key to everything in Lower Puddock, including several things that had been demolished. The internet was Dot's great-grandson Kwame, fourteen, who had been promised a tenner and was already filming.

And the distraction, it emerged, was the vicar.

"Why me?" said the Reverend Toby Marsh faintly.

"Because at nine o'clock on Friday," said Marjorie, unrolling a flower-show schedule on the back of which she had drawn the marquee in remarkable detail, "you are going to knock on the security hut and ask the night watchman to pray with you. For a long time."

"About what?"

"Gerald," said Marjorie darkly, "would be a good place to start."
EOF

text he1_ann <<'EOF'
The door of the village hall banged open.

"Ladies!" said Gerald Pryce-Whitlow, who had never in his life entered a room any other way. He was a large, pink, glossy man in a waxed jacket, and he was carrying a basket of jars tied with tartan ribbon. "Just passing. Thought I'd bring a little something for the raffle."

Eleven women and one vicar looked at the basket, and then at the empty *Finest Thick Cut* jar in the middle of the table, and then, as one, at Marjorie.

Marjorie, without any hurry at all, put a tea cosy over it.

"How kind, Gerald," she said. "Do sit down. We were just discussing the show."

"Ah, the show!" Gerald beamed. "Going for second place again, Marjorie?"

"Something like that," said Marjorie, and poured him a cup of tea so strong the spoon very nearly stood up in it.
EOF

# Round 2 (continues from gus: the crew and the plan) -------------------------

text he2_bram <<'EOF'
Friday night was cold and clear, with a moon like a slice of lemon.

At nine o'clock precisely the Reverend Toby Marsh knocked on the door of the security hut, and the night watchman, a kindly man called Len, found himself on his knees on the lino before he quite knew how it had happened.

"Let us pray," said the vicar, "for Gerald."

Behind the marquee, Dot cut her scooter's lights and coasted the last fifty yards in silence. Pauline had the canvas unlaced in under a minute. Marjorie slipped inside with Kwame behind her, phone held high, whispering "We're *in*" to nobody in particular.

The cabinet stood in the middle of the marquee, glowing faintly under the emergency lights: forty-one jars of marmalade in neat rows.

Between them and it, on a bale of straw, something large and white unfolded its neck.

"Oh no," said Pauline. "They've left Brigadier out."

Brigadier was the reigning Best in Show (Poultry), and he had once put a county councillor in hospital. He looked at them with one small, terrible eye, and hissed.
EOF

text he2_dana <<'EOF'
The vicar had prepared eight minutes of prayer. He had not prepared for Len.

"Gerald?" said the night watchman, sitting back on his heels. "Gerald Pryce-Whitlow? You want to pray for *him*?"

"Er," said the vicar. "We should pray for everyone, Len."

"He's my brother. Half-brother. We haven't spoken in twenty years. He got the Hall and I got the allotment and a note saying *better luck next time*." Len looked at the vicar with sudden hope. "Do you think prayer can do anything about a man like that?"

The vicar thought of Marjorie, at that moment crawling under the marquee wall with a bag of lock-picks and a thermos.

"Yes, Len," he said. "I think tonight it might."

Outside, something went *clang* against a tent pole, and a voice that could only be Dot's said a word the vicar had not known she knew.
EOF

text he2_hana <<'EOF'
It was Kwame who noticed first.

"Um," he whispered, as they crouched behind the cake stall. "I might have pressed *live*."

Marjorie turned, very slowly. "Live," she repeated.

"Like, people are watching. Now. Five hundred people. Someone in Brazil says good luck." The phone pinged, and pinged again, and comments scrolled up the screen faster than he could read them:

- *is this the lower puddock marmalade heist??*
- *geralds marmalade made me ill at a fete in 2019 just saying*
- *GO NANS GO*
- *someone has already written a song about this and honestly it slaps*

"Turn it off," hissed Marjorie.

Dot peered over his shoulder. "Ask them how to open a lock," she said. "Pauline's gone very quiet."
EOF

# Round 3 (continues from bram: Brigadier the goose) -------------------------

text he3_ann <<'EOF'
What followed was never fully agreed upon afterwards, even by the people who had been there.

Pauline maintained that she had opened the cabinet with great calm while being pecked. Kwame's video showed her opening it at a dead run, with Brigadier attached to her skirt. Marjorie remembered grabbing the jar with the tartan ribbon; Dot remembered grabbing Marjorie; and everybody remembered the moment the goose got onto the scooter.

They made it out under the canvas with the jar (four humans and one very smug goose) and did not stop until they reached the bus shelter on the Market Puddock road.

There, panting, Marjorie held the jar up to the streetlight, and her face fell.

The label read *Mrs E. Haddow: Lemon Curd*.
EOF

text he3_chidi <<'EOF'
It was Dot who saved them. Dot had kept geese for fifty years, and she had a custard cream in her cardigan pocket, because Dot always had a custard cream in her cardigan pocket.

"Brigadier," she said sternly, holding it out. "*Sit.*"

The goose looked at the biscuit. The goose looked at Dot. Then, with enormous dignity, the reigning Best in Show (Poultry) folded himself back down onto his bale and ate it from her hand.

Pauline had the cabinet open in forty seconds. Marjorie ran her torch along the rows: Mrs Haddow's lemon, the Colonel's lime-and-ginger, her own Seville, and then...

"There are *two*," she said.

Two jars, side by side, each with a tartan ribbon and a label that read *G. Pryce-Whitlow, Seville Orange*. One was dark and thick and glossy. The other was exactly, suspiciously, the colour of *Finest Thick Cut*.

Before anyone could speak, somebody under the judges' table sneezed.
EOF

text he3_fumiko <<'EOF'
Brigadier took one step forward. Marjorie took one step back, into Kwame, who took one step back into a trestle table loaded with the Junior Section's decorated biscuits.

The table went over with a sound like a thousand small plates.

Instantly, every light in the marquee came on.

"Nobody move," said a voice from the entrance. It was Len the night watchman, holding a torch in one hand and, for some reason, a hymn book in the other. Behind him, looking as though he would like the earth to swallow him, stood the Reverend Toby Marsh.

"I'm so sorry, Marjorie," said the vicar. "He wanted to pray for the goose as well."

Len took in the open canvas, the scooter, the crowd of pensioners and the teenager filming it all.

"Right," he said, and put down the hymn book. "Which one of you is going for the Pryce-Whitlow jar?"
EOF

text he3_gus <<'EOF'
"Nobody panic," said Marjorie, who was panicking. "Geese are just large ducks with opinions."

Brigadier stood up on his bale. Standing, he was nearly as tall as Kwame. He spread his wings, which took some time, and the draught from them blew out Pauline's torch.

In the dark, something went *hsssssss*. Then there was a soft thump, and a crunch, and a deep, contented silence.

When Pauline got the torch going again, Brigadier was sitting in the middle of the floor eating the Colonel's prize-winning Victoria sponge straight off its doily, and looking at them as if to say: *carry on; I have what I came for*.

"Well," whispered Dot. "That's one of us with a plan."
EOF

# Round 4, open (continues from chidi: two jars, and a sneeze) --------------

text he4_dana <<'EOF'
Gerald Pryce-Whitlow crawled out from under the judges' table with straw in his hair, a spoon in one hand and a jar of *Finest Thick Cut* in the other. For a long moment nobody said anything. Brigadier, sensing drama, stopped chewing.

"Marjorie," said Gerald, with as much dignity as a man can manage on his hands and knees. "This isn't what it looks like."

"It looks," said Marjorie, "as though you've brought a spare."

"The real one is mine. I *made* it. It's my mother's recipe." He faltered, and all the pink went out of his face at once. "Only I've never been able to make it set. Not once, in eleven years. So every year I make one, and it doesn't set, and on the Friday night I come here and swap it."

Kwame, still filming, slowly lowered the phone.

"Eleven years," said Dot softly. "You poor *ferret*."
EOF

text he4_hana <<'EOF'
The sneeze was followed by a small, ladylike cough, and out from under the judges' tablecloth crawled not Gerald Pryce-Whitlow but Mrs Eileen Haddow, chairwoman of the judging panel, in a black polo-neck and gardening gloves.

She was holding a third jar.

"Oh," she said, seeing them. "Oh, *bother*."

"Eileen," said Marjorie slowly. "What are you doing under there?"

Mrs Haddow stood up, brushed the straw from her knees, and looked from Marjorie to the two Pryce-Whitlow jars and back again, with the weary air of a woman who has been keeping a secret for a very long time.

"The same as you, I expect," she said. "Only I've been doing it for eleven years, and I had rather hoped nobody would notice."
EOF
# ---------------------------------------------------------------------------
# the-town-that-sold-tuesday: "The Town That Sold Tuesday" (owner dana).
# Five-day rounds. Rounds 1-3 closed, 4 open. Winners: r1 ann, r2 fumiko, r3 hana.
# ---------------------------------------------------------------------------

text the-town-that-sold-tuesday <<'EOF'
Once, in the valley town of Hollin, the people decided they had too many days.

It was not that they were lazy. Quite the opposite: there was the mill to run and the sheep to shear, the bridge to mend and the accounts to settle, and there never seemed to be enough week to do it in. "If only," said the Mayor at the spring meeting, "we could be rid of one day, we'd be that much closer to Sunday."

Everybody laughed. But that evening a peddler came over the pass with an empty cart, and he had heard.

He was a thin man in a coat of many pockets, and he smiled with all of his teeth. "I buy days," he said. "Not all of them, mind. Just the ones you can spare. I'll give a clock of solid gold to every house in town, and all you need give me is Tuesday."

"What's wrong with Tuesday?" asked the baker.

"Nothing at all," said the peddler. "That's why I want it."

They voted in the square by lamplight. Every hand went up but one: Mab, the goose-girl, who was eleven and had been told to hold the lantern, and so had no hand free.

In the morning there was a gold clock on every mantelpiece in Hollin, ticking very loudly.

And the day after Monday was Wednesday.
EOF

# Round 1 ---------------------------------------------------------------------

text fa1_ann <<'EOF'
At first, it was wonderful.

The week went by like a cart going downhill: Monday, Wednesday, Thursday, Friday, and there was Saturday already, with its market and its music, and then Sunday, and rest. The Mayor said it was the most efficient week in the history of the valley.

But by the third week, people began to notice small things missing.

Old Widow Farrant noticed first. Her son had always walked over the hill to see her on Tuesdays, and now he didn't come, and when she asked him why, he looked puzzled and said, *But I always come on... I always...* and couldn't finish.

The library's storytime had been on Tuesdays. So had choir practice. So had the day the baker made the dark rye that only the schoolmaster liked.

None of it had moved to another day. It had simply gone, the way a tune goes when you can't remember how it starts.

Only Mab, whose hand had been on the lantern, still remembered Tuesday. She lay awake remembering it, the way your tongue keeps finding the gap where a tooth has been.
EOF

text fa1_hana <<'EOF'
The clocks were the first thing anyone complained about.

They ticked; not unpleasantly at first, just a bright, busy sound like a cricket in the grate. But each day they ticked a little louder and a little faster, until by the end of the first month you could hear every clock in Hollin from the square, all chattering together like a flock of starlings.

People began to walk faster to keep up with them. They ate standing up. The baker took his loaves out half-baked, because by the time they were done it was already time to start the next batch. Nobody sat on the bench by the river any more. There was no time to sit.

"It's only that we've got so much done," said the Mayor, whose hands shook a little as he said it.

Mab put her family's clock in the goose-shed, under a sack. The geese, who had always been sensible birds, sat on it.
EOF

text fa1_bram <<'EOF'
Mab did not wait to find out what Wednesday would be like. She had a feeling in her stomach, the one she got before a fox came to the goose-shed, and she had learned to listen to it.

She took a loaf, her good boots and the lantern, and set off up the pass while the town was still admiring its clocks.

The cart tracks were easy to follow. They went up the mountain road, past the shepherds' hut, and then, at the very top of the pass, where the road should have gone down into the next valley, they simply stopped, as if the cart had driven into the sky.

Mab stood at the edge of the road and held up the lantern.

In its light, and only in its light, she could see a door.
EOF

# Round 2 (continues from ann: the small things missing) ---------------------

text fa2_gus <<'EOF'
The Mayor called a meeting, of course. It was on a Wednesday, because everything was on a Wednesday now.

"Friends," he said, "I have heard your complaints. The choir. The rye bread. Mrs Farrant's son." He spread his hands. "But consider: we have gold clocks. We have shorter weeks. Some of you feel that something is missing, but nobody can say *what*."

"Tuesday," said Mab, from the back.

Everybody turned to look at her, and then away again, the way people look away from a word in a foreign language.

"In fact," said the Mayor, "the peddler has written. He is offering a second clock for every house, silver this time, very handsome, for *Thursday*."

There was a murmur. Hands began, slowly, to rise.

Mab climbed up onto her bench and held the lantern as high as it would go.
EOF

text fa2_fumiko <<'EOF'
So one morning, in the grey part before Wednesday properly began, Mab put on her good boots, took the lantern, and went to find the peddler.

She followed the narrow wheel-tracks of his cart over the pass and down through three valleys. In each town she came to, somebody was missing a day. In Brackwater it was Thursday, and they held their market on a Wednesday that went on much too long. In Sallow it was Sunday, and everyone looked very tired.

On the ninth evening she came to a crossroads with a great oak at its centre, and under the oak the peddler had set up his stall.

It was covered in jars. Each jar held a soft light, like a summer evening seen through honey, and each was labelled in neat brown ink: *Thursday, Brackwater. Sunday, Sallow. Tuesday, Hollin.*

Around the stall stood people Mab didn't know, in fine clothes, counting out coins.

"Roll up!" the peddler was calling. "Fresh days, hardly used! Take home a Tuesday, and you'll wonder how you ever managed with only seven!"
EOF

text fa2_eitan <<'EOF'
Mab asked the schoolmaster, who said there had never been a Tuesday and anyway it was not on the syllabus. She asked the priest, who said the week had six days just as a fly has six legs, and it was not for us to question flies. She asked her own mother, who looked at her for a long time and then said, gently, that perhaps she needed more sleep.

So in the end she asked the geese.

The oldest gander, whose name was Pardon, listened with his head on one side. Geese have long memories and no use for calendars, and it seemed to Mab that he understood.

"Pardon," she said, "where did Tuesday go?"

Pardon considered this. Then he turned, very deliberately, and pointed his beak up the mountain road, towards the pass the peddler had come over.

And honked, once, as if to say: *well, obviously*.
EOF

# Round 3 (continues from fumiko: the peddler's stall of jarred days) ---------

text fa3_hana <<'EOF'
Mab pushed through the fine coats to the front of the stall and put both hands flat on the board, beside the jar marked *Tuesday, Hollin*.

"That's ours," she said. "I want it back."

The peddler looked down at her, and for the first time his smile did not show all of his teeth.

"Ah," he said. "The girl with the lantern. I wondered if one of you would come." He lifted the jar and turned it, so the light inside slid about like syrup. "But you sold it, fair and square. Every hand but yours."

"They didn't know what it was."

"Nobody ever does, until it's gone. That's how I make my living." He set the jar down between them. "Very well. I'm an honest dealer, in my way. I won't take gold for it; I have plenty. But if you can tell me what your Tuesday was *worth*, and make me believe it's worth more than I paid, you may carry it home tonight."

The people in fine coats fell quiet, and turned to listen.
EOF

text fa3_bram <<'EOF'
Mab did not argue. She had not walked through three valleys to argue.

She waited until the peddler turned to a customer, a stout gentleman who wanted a Saturday with good weather, and then she snatched the jar marked *Tuesday, Hollin* from the stall and ran.

She had not known a day would be so heavy. It was like carrying a sleeping child, or a bucket of river water, or the whole of a long summer afternoon. By the edge of the crossroads her arms ached. By the first milestone they burned.

Behind her, the peddler did not shout or give chase. He only called after her, mildly, "You'll find it won't open, my dear. Not for one. A day only opens for a *town*."

Mab stopped, gasping, under the milestone, and looked down at the jar. Inside it, Tuesday moved slowly, like a fish in deep water, waiting.
EOF

# Round 4, open (continues from hana: what was Tuesday worth?) --------------

text fa4_chidi <<'EOF'
Mab had thought she would need a speech. In the end she only needed a list.

"On Tuesdays," she said, "Tom Farrant walks over the hill to see his mother, and she saves him the end of the loaf because it's his favourite. On Tuesdays the baker makes the dark rye that only the schoolmaster likes, and the schoolmaster pretends it's for his dog. On Tuesdays the choir practises, and they're terrible, and they know it, and they sing anyway."

The peddler said nothing. A lady in a fur collar had put her coins away.

"On Tuesdays," said Mab, "my gran used to tell me the names of all the stars. She's dead now. But I still go out on Tuesdays and say them, so I won't forget." Her voice wobbled. "Except I can't. Because there aren't any Tuesdays."

Under the oak it had gone very quiet. Somewhere near the back, a grown man in a silk waistcoat was blowing his nose.
EOF

text fa4_gus <<'EOF'
Before Mab could answer, there was a noise on the road behind her: the creak of cartwheels, the bleat of a sheep, and the unmistakable honk of a gander who considered himself in charge.

It was Hollin. Not all of it, but a good deal: the baker with flour still on his arms, the schoolmaster, Widow Farrant riding on her son's shoulders, half the choir, and at the front, looking exhausted and ashamed and very determined, the Mayor, carrying his gold clock in both arms like a baby that would not stop crying.

"We followed your tracks," he said. "We couldn't remember what we'd lost. But we remembered that *you* remembered." He set the clock on the stall, where it ticked furiously. "We should like to give these back."

Behind him, one after another, the people of Hollin came forward and laid down their clocks, until the stall held a small, loud, golden mountain.
EOF

text fa4_ann <<'EOF'
Mab thought for a long time. Then she set the lantern she had carried all the way from Hollin on the board beside the jar.

"This is what Tuesday was worth," she said. "It's the night I didn't put my hand up. If I'd had a hand free, I'd have voted like everyone else, and nobody would remember. So it's worth one person remembering. That's all a day ever needs."

The peddler looked at the lantern for a long moment. Then, to everyone's surprise, he laughed, not a peddler's laugh but a real one, and pushed the jar across the board.

"Take it," he said. "That's the best price I've been offered in a hundred years."

Mab carried Tuesday home over the pass. When she opened the jar in Hollin square, it spilled out over the rooftops like a slow gold morning, and the clocks on every mantelpiece stopped at once, and nobody ever wound them again.

And ever since, in Hollin, Tuesday is the day that nobody is in a hurry.
EOF
# ---------------------------------------------------------------------------
# what-the-spinner-wanted: "What the Spinner Wanted" (owner fumiko). Round 1 open.
# ---------------------------------------------------------------------------

text what-the-spinner-wanted <<'EOF'
You know how the story goes. Everybody does. A miller boasts that his daughter can spin straw into gold; the king locks her in a tower full of straw; a little man appears at midnight and does the spinning for her, for a price. A necklace. A ring. And on the third night, when she has nothing left, her firstborn child.

And then the part everyone loves: she guesses my name, and I stamp my foot so hard I go through the floor, and that is the end of me.

I should like to tell it properly, just once.

Here is the first thing you ought to know: I never wanted the baby. What would I do with a baby? I live in a hollow under a hill. I eat mushrooms. I have never, in three hundred years, kept a houseplant alive.

Here is the second thing: I didn't have a name. Not a secret one, not a silly one. None. Where I come from, you don't get a name unless somebody gives you one, and nobody ever had.

So when I asked for her firstborn, what I meant (what I was too proud and too clumsy to say) was: *let me stand at the font when the child is named, and hear how it's done.*

She didn't understand. She was frightened, and tired, and covered in straw.

But she did something nobody had ever done before. On the first night, when the spinning was finished and I was halfway out of the window, she said, "Wait. *Thank you.*"
EOF

# Round 1, open ---------------------------------------------------------------

text sp1_bram <<'EOF'
I nearly fell off the sill.

Nobody thanks a creature like me. People bargain with us, and curse us, and nail horseshoes over their doors against us. In three hundred years I had been called *thing*, *imp*, *little devil*, and once, by a bishop, *the Adversary*, which I thought rather flattering. I had never been thanked.

"What for?" I said, suspiciously.

"For the gold." She held up a spindle, heavy and shining. "And for not laughing at me. I can't spin. Not even wool. My father only said it because he'd had four pints and the king was rude about his hat."

I climbed back in. I don't know why. The moon was setting and I had a long way to go.

"He was a very rude king," I agreed. "I've seen the hat. It was a perfectly good hat."

She laughed, and the straw in her hair shook, and I thought: *oh, no.*
EOF

text sp1_hana <<'EOF'
I stopped with one leg over the windowsill and the other still in the room, which is not a dignified way to receive gratitude.

"Thank you," she said again, as if I might not have heard. "I'm Hester. What do I call you?"

There it was: the question I had been dreading for three hundred years.

I could have lied. I had lies ready for exactly this: *Tom Tit, Whippity Stourie, Master Crookshank.* Good names. Other people's names. But she was looking straight at me, with straw in her eyelashes, and for some reason I found I couldn't.

"Nothing," I said. "You don't call me anything. I haven't got one."

She frowned, the way people frown at a sum that doesn't add up. "Everyone has a name."

"Everyone," I said, "has a mother." And I went out of the window before she could see my face.
EOF

text sp1_chidi <<'EOF'
I should have gone. Instead I turned round on the sill and looked at her properly for the first time.

She was younger than I'd thought, sixteen perhaps, and the king's guards had not given her so much as a blanket. Her hands were raw from trying. Around her, in the grey light, the gold I had spun lay in heaps like fallen leaves.

"You shouldn't thank me," I said. "You don't know what I'll ask for tomorrow."

"I know it'll be something terrible," she said. "That's how these stories go." She pulled her knees up to her chin. "But tonight you helped me, and tonight I'm grateful. Tomorrow I'll be frightened of you. Is that fair?"

It was the fairest thing anyone had ever said to me.

"Tomorrow," I said, "bring bread. I'm always hungry after spinning."
EOF
# ---------------------------------------------------------------------------
# Playing the game.
# ---------------------------------------------------------------------------

now=2026-08-30T09:00:00Z
"$PROLIFIC" init "$tmp/site" --title "Prolific Demo" --now "$now"
C="$tmp/site/Content"

# at TIMESTAMP: sets the clock for the commands that follow; time only moves forward.
at() {
    [[ $1 =~ ^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z$ ]] || die "bad timestamp '$1'"
    [[ $1 > $now ]] || die "the clock must move forward: $1 is not after $now"
    [[ ! $1 > $PRESENT ]] || die "$1 is after the demo's present, $PRESENT"
    now=$1
}

# p ARGS...: runs prolific on the demo content at the current time.
p() { "$PROLIFIC" "$@" --content "$C" --now "$now"; }

# add_user HANDLE NAME [--avatar]: a new player, with the bio text user-HANDLE and, with
# --avatar, a picture drawn by scripts/demo-avatar.py (the others show their initials).
add_user() {
    if [[ ${3:-} == --avatar ]]; then
        python3 "$(dirname "$0")/demo-avatar.py" "$1" "$T/avatar-$1.png"
        p user add "$1" --name "$2" --file "$T/user-$1.md" --avatar "$T/avatar-$1.png"
    else
        p user add "$1" --name "$2" --file "$T/user-$1.md"
    fi
}

# submit PROJECT AUTHOR SNIPPET [--ending]: submits the text SNIPPET to the open round and
# keeps the id that prolific prints in a variable of the same name, for the ballots.
submitted=" "   # "SNIPPET:AUTHOR " for every submission so far
submit() {
    local project=$1 author=$2 name=$3 id
    shift 3
    id=$(p submit "$project" --author "$author" --file "$T/$name.md" "$@")
    [[ $id =~ ^[^[:space:]]+$ ]] || die "submit $name: expected a submission id on stdout, got '$id'"
    printf -v "$name" '%s' "$id"
    submitted+="$name:$author "
}

# vote PROJECT VOTER SNIPPET...: a ballot approving the named snippets (by their text names).
vote() {
    local project=$1 voter=$2 name ids=()
    shift 2
    for name in "$@"; do
        [[ $submitted == *" $name:"* ]] || die "vote by $voter: '$name' has not been submitted"
        [[ $submitted != *" $name:$voter "* ]] || die "vote by $voter: '$name' is their own snippet"
        ids+=("${!name}")
    done
    p vote "$project" --voter "$voter" "${ids[@]}"
}

# close_round PROJECT AUTHOR: closes the open round now and checks that AUTHOR's snippet won,
# so the story goes on from the snippet the next round's writers continue.
close_round() {
    local out
    out=$(p close "$1")
    echo "$out"
    case "$out" in
        *"'$2-"*) ;;
        *) die "expected @$2 to win this round of $1; the tally gave: $out" ;;
    esac
}

# === August 2026 ===========================================================
at 2026-08-30T10:12:00Z; add_user ann     "Ann Whitcombe" --avatar
at 2026-08-31T08:40:00Z; add_user bram    "Bram de Vries"

# === September 2026 ========================================================
at 2026-09-01T07:55:00Z; add_user chidi   "Chidi Okonkwo" --avatar

# gannet-rock: created; round 1 open until 2026-09-08T10:00Z
at 2026-09-01T10:00:00Z; p project new gannet-rock --title "The Keeper of Gannet Rock" --owner ann \
    --rounds 6 --round-length 7d --tag mystery --tag sea --file "$T/gannet-rock.md"
at 2026-09-02T09:30:00Z; submit gannet-rock                bram   gr1_bram
at 2026-09-02T14:30:00Z; add_user dana    "Dana Reyes"
at 2026-09-03T19:05:00Z; add_user eitan   "Eitan Shapiro"
at 2026-09-03T20:15:00Z; submit gannet-rock                dana   gr1_dana
at 2026-09-04T12:40:00Z; submit gannet-rock                chidi  gr1_chidi
at 2026-09-05T08:05:00Z; vote   gannet-rock                ann    gr1_dana
at 2026-09-05T11:20:00Z; add_user fumiko  "Fumiko Tanaka" --avatar
at 2026-09-05T22:10:00Z; vote   gannet-rock                eitan  gr1_dana gr1_chidi
at 2026-09-06T10:25:00Z; vote   gannet-rock                fumiko gr1_dana
at 2026-09-08T12:00:00Z; close_round gannet-rock dana
#   round 1 -> dana 2.5, chidi 0.5, bram 0; round 2 open until 2026-09-15T12:00Z
at 2026-09-08T16:45:00Z; add_user gus     "Gus Halvorsen"
at 2026-09-09T18:00:00Z; submit gannet-rock                eitan  gr2_eitan
at 2026-09-10T07:45:00Z; submit gannet-rock                fumiko gr2_fumiko
at 2026-09-11T21:00:00Z; submit gannet-rock                ann    gr2_ann
at 2026-09-12T08:00:00Z; vote   gannet-rock                gus    gr2_fumiko
at 2026-09-12T09:10:00Z; add_user hana    "Hana Novák"
at 2026-09-12T20:00:00Z; vote   gannet-rock                hana   gr2_fumiko gr2_eitan
at 2026-09-13T10:00:00Z; vote   gannet-rock                dana   gr2_fumiko
at 2026-09-13T18:30:00Z; vote   gannet-rock                chidi  gr2_ann gr2_fumiko
at 2026-09-14T09:00:00Z; vote   gannet-rock                bram   gr2_eitan
at 2026-09-15T15:00:00Z; close_round gannet-rock fumiko
#   round 2 -> fumiko 3, eitan 1.5, ann 0.5; round 3 open until 2026-09-22T15:00Z
at 2026-09-16T10:00:00Z; submit gannet-rock                gus    gr3_gus
at 2026-09-17T08:30:00Z; submit gannet-rock                chidi  gr3_chidi
at 2026-09-18T19:00:00Z; submit gannet-rock                hana   gr3_hana
at 2026-09-19T09:00:00Z; vote   gannet-rock                ann    gr3_chidi
at 2026-09-19T21:00:00Z; vote   gannet-rock                dana   gr3_chidi gr3_hana
at 2026-09-20T11:00:00Z; vote   gannet-rock                eitan  gr3_chidi
at 2026-09-20T17:00:00Z; vote   gannet-rock                fumiko gr3_gus gr3_chidi
at 2026-09-21T08:00:00Z; vote   gannet-rock                bram   gr3_hana
at 2026-09-22T18:00:00Z; close_round gannet-rock chidi
#   round 3 -> chidi 3, hana 1.5, gus 0.5; round 4 open until 2026-09-29T18:00Z
at 2026-09-23T12:00:00Z; submit gannet-rock                hana   gr4_hana
at 2026-09-24T20:00:00Z; submit gannet-rock                eitan  gr4_eitan --ending
at 2026-09-25T09:15:00Z; submit gannet-rock                bram   gr4_bram --ending
at 2026-09-26T10:00:00Z; vote   gannet-rock                ann    gr4_bram
at 2026-09-26T18:00:00Z; vote   gannet-rock                chidi  gr4_bram gr4_eitan
at 2026-09-27T09:30:00Z; vote   gannet-rock                dana   gr4_bram
at 2026-09-27T20:00:00Z; vote   gannet-rock                fumiko gr4_bram
at 2026-09-28T11:00:00Z; vote   gannet-rock                gus    gr4_eitan
at 2026-09-30T09:00:00Z; close_round gannet-rock bram
#   round 4 -> bram 3.5, eitan 1.5, hana 0. The winner is an ending: gannet-rock is complete.

# === October 2026 ==========================================================

# long-patience: created; round 1 open until 2026-10-13T09:00Z
at 2026-10-06T09:00:00Z; p project new long-patience --title "The Long Patience" --owner chidi \
    --rounds 8 --round-length 7d --tag science-fiction --tag generation-ship --file "$T/long-patience.md"
at 2026-10-07T14:00:00Z; submit long-patience              gus    sh1_gus
at 2026-10-08T10:30:00Z; submit long-patience              hana   sh1_hana
at 2026-10-09T19:00:00Z; submit long-patience              eitan  sh1_eitan
at 2026-10-10T09:00:00Z; vote   long-patience              chidi  sh1_gus
at 2026-10-10T21:00:00Z; vote   long-patience              ann    sh1_gus sh1_hana
at 2026-10-11T12:00:00Z; vote   long-patience              bram   sh1_gus
at 2026-10-11T20:00:00Z; vote   long-patience              dana   sh1_hana
at 2026-10-12T10:00:00Z; vote   long-patience              fumiko sh1_gus sh1_eitan
at 2026-10-13T11:00:00Z; close_round long-patience gus
#   round 1 -> gus 3, hana 1.5, eitan 0.5; round 2 open until 2026-10-20T11:00Z
at 2026-10-14T09:00:00Z; submit long-patience              bram   sh2_bram
at 2026-10-14T20:00:00Z; submit long-patience              hana   sh2_hana
at 2026-10-15T13:00:00Z; submit long-patience              fumiko sh2_fumiko
at 2026-10-16T08:00:00Z; vote   long-patience              chidi  sh2_hana
at 2026-10-16T19:00:00Z; vote   long-patience              gus    sh2_hana sh2_fumiko
at 2026-10-17T12:00:00Z; vote   long-patience              eitan  sh2_hana
at 2026-10-18T09:00:00Z; vote   long-patience              ann    sh2_bram
at 2026-10-18T17:00:00Z; vote   long-patience              dana   sh2_hana
at 2026-10-20T13:00:00Z; close_round long-patience hana
#   round 2 -> hana 3.5, bram 1, fumiko 0.5; round 3 open until 2026-10-27T13:00Z
at 2026-10-21T10:00:00Z; submit long-patience              ann    sh3_ann
at 2026-10-22T18:00:00Z; submit long-patience              eitan  sh3_eitan
at 2026-10-23T09:00:00Z; vote   long-patience              chidi  sh3_ann
at 2026-10-23T20:00:00Z; vote   long-patience              hana   sh3_ann
at 2026-10-24T11:00:00Z; vote   long-patience              gus    sh3_eitan
at 2026-10-25T10:00:00Z; vote   long-patience              bram   sh3_ann sh3_eitan

# the-marmalade-job: created; round 1 open until 2026-11-03T10:00Z
at 2026-10-27T10:00:00Z; p project new the-marmalade-job --title "The Marmalade Job" --owner eitan \
    --rounds 6 --round-length 7d --tag comedy --tag heist --file "$T/the-marmalade-job.md"
at 2026-10-27T15:00:00Z; close_round long-patience ann
#   round 3 -> ann 2.5, eitan 1.5; round 4 open until 2026-11-03T15:00Z
at 2026-10-27T19:00:00Z; submit the-marmalade-job          fumiko he1_fumiko
at 2026-10-28T09:00:00Z; submit long-patience              dana   sh4_dana
at 2026-10-28T14:00:00Z; submit the-marmalade-job          gus    he1_gus
at 2026-10-28T20:00:00Z; submit long-patience              gus    sh4_gus
at 2026-10-29T12:00:00Z; submit long-patience              hana   sh4_hana
at 2026-10-29T18:00:00Z; submit the-marmalade-job          ann    he1_ann
at 2026-10-30T08:00:00Z; vote   the-marmalade-job          eitan  he1_gus
at 2026-10-30T10:00:00Z; vote   long-patience              chidi  sh4_dana sh4_gus
at 2026-10-30T19:00:00Z; vote   long-patience              ann    sh4_dana
at 2026-10-30T22:00:00Z; vote   the-marmalade-job          bram   he1_gus
at 2026-10-31T11:00:00Z; vote   long-patience              eitan  sh4_dana
at 2026-10-31T15:00:00Z; vote   the-marmalade-job          dana   he1_gus he1_ann

# === November 2026 =========================================================
at 2026-11-01T09:00:00Z; vote   long-patience              fumiko sh4_dana
at 2026-11-01T12:00:00Z; vote   the-marmalade-job          hana   he1_fumiko
at 2026-11-01T20:00:00Z; vote   long-patience              bram   sh4_hana

# the-town-that-sold-tuesday: created; round 1 open until 2026-11-07T10:00Z
at 2026-11-02T10:00:00Z; p project new the-town-that-sold-tuesday --title "The Town That Sold Tuesday" --owner dana \
    --rounds 5 --round-length 5d --tag fable --file "$T/the-town-that-sold-tuesday.md"
at 2026-11-02T10:45:00Z; vote   the-marmalade-job          chidi  he1_gus
at 2026-11-03T08:00:00Z; submit the-town-that-sold-tuesday ann    fa1_ann
at 2026-11-03T12:00:00Z; close_round the-marmalade-job gus
#   round 1 -> gus 3.5, fumiko 1, ann 0.5; round 2 open until 2026-11-10T12:00Z
at 2026-11-03T17:00:00Z; close_round long-patience dana
#   round 4 -> dana 3.5, hana 1, gus 0.5; round 5 open until 2026-11-10T17:00Z
at 2026-11-03T19:00:00Z; submit the-town-that-sold-tuesday hana   fa1_hana
at 2026-11-04T10:00:00Z; submit long-patience              fumiko sh5_fumiko
at 2026-11-04T12:00:00Z; submit the-marmalade-job          bram   he2_bram
at 2026-11-04T16:00:00Z; submit the-town-that-sold-tuesday bram   fa1_bram
at 2026-11-05T08:00:00Z; submit long-patience              bram   sh5_bram
at 2026-11-05T09:00:00Z; vote   the-town-that-sold-tuesday dana   fa1_ann
at 2026-11-05T14:00:00Z; submit the-marmalade-job          dana   he2_dana
at 2026-11-05T17:00:00Z; vote   the-town-that-sold-tuesday fumiko fa1_ann
at 2026-11-05T20:00:00Z; submit long-patience              eitan  sh5_eitan
at 2026-11-06T08:00:00Z; vote   the-town-that-sold-tuesday gus    fa1_ann fa1_hana
at 2026-11-06T09:00:00Z; vote   long-patience              chidi  sh5_fumiko
at 2026-11-06T12:00:00Z; submit the-marmalade-job          hana   he2_hana
at 2026-11-06T12:40:00Z; vote   the-town-that-sold-tuesday eitan  fa1_bram
at 2026-11-06T19:00:00Z; vote   long-patience              dana   sh5_fumiko sh5_bram
at 2026-11-06T20:00:00Z; vote   the-town-that-sold-tuesday chidi  fa1_ann
at 2026-11-07T08:00:00Z; vote   the-marmalade-job          eitan  he2_bram
at 2026-11-07T10:00:00Z; vote   long-patience              gus    sh5_fumiko
at 2026-11-07T12:00:00Z; close_round the-town-that-sold-tuesday ann
#   round 1 -> ann 3.5, bram 1, hana 0.5; round 2 open until 2026-11-12T12:00Z
at 2026-11-07T15:00:00Z; vote   the-marmalade-job          gus    he2_bram he2_hana
at 2026-11-07T21:00:00Z; vote   long-patience              hana   sh5_fumiko sh5_eitan
at 2026-11-08T09:00:00Z; submit the-town-that-sold-tuesday gus    fa2_gus
at 2026-11-08T11:00:00Z; vote   long-patience              ann    sh5_bram
at 2026-11-08T14:00:00Z; vote   the-marmalade-job          fumiko he2_bram
at 2026-11-08T17:00:00Z; submit the-town-that-sold-tuesday fumiko fa2_fumiko
at 2026-11-08T20:00:00Z; vote   the-marmalade-job          ann    he2_dana
at 2026-11-09T09:00:00Z; vote   the-marmalade-job          chidi  he2_bram he2_dana
at 2026-11-09T14:00:00Z; submit the-town-that-sold-tuesday eitan  fa2_eitan
at 2026-11-09T19:00:00Z; vote   the-town-that-sold-tuesday dana   fa2_fumiko
at 2026-11-10T09:00:00Z; vote   the-town-that-sold-tuesday ann    fa2_fumiko fa2_gus
at 2026-11-10T14:00:00Z; close_round the-marmalade-job bram
#   round 2 -> bram 3, dana 1.5, hana 0.5; round 3 open until 2026-11-17T14:00Z
at 2026-11-10T19:00:00Z; close_round long-patience fumiko
#   round 5 -> fumiko 3, bram 1.5, eitan 0.5; round 6 open until 2026-11-17T19:00Z
at 2026-11-10T21:00:00Z; vote   the-town-that-sold-tuesday hana   fa2_fumiko
at 2026-11-11T09:00:00Z; submit long-patience              eitan  sh6_eitan
at 2026-11-11T10:00:00Z; vote   the-town-that-sold-tuesday bram   fa2_gus
at 2026-11-11T12:00:00Z; submit the-marmalade-job          ann    he3_ann
at 2026-11-11T18:00:00Z; vote   the-town-that-sold-tuesday chidi  fa2_fumiko
at 2026-11-12T09:00:00Z; submit the-marmalade-job          chidi  he3_chidi
at 2026-11-12T15:00:00Z; close_round the-town-that-sold-tuesday fumiko
#   round 2 -> fumiko 3.5, gus 1.5, eitan 0; round 3 open until 2026-11-17T15:00Z
at 2026-11-12T16:20:00Z; submit long-patience              ann    sh6_ann
at 2026-11-12T20:00:00Z; submit the-marmalade-job          fumiko he3_fumiko
at 2026-11-13T08:00:00Z; submit the-town-that-sold-tuesday hana   fa3_hana
at 2026-11-13T10:00:00Z; submit long-patience              gus    sh6_gus
at 2026-11-13T14:00:00Z; submit the-marmalade-job          gus    he3_gus
at 2026-11-13T19:00:00Z; submit the-town-that-sold-tuesday bram   fa3_bram
at 2026-11-14T09:00:00Z; vote   long-patience              chidi  sh6_eitan
at 2026-11-14T10:00:00Z; vote   the-town-that-sold-tuesday dana   fa3_hana
at 2026-11-14T12:00:00Z; vote   the-marmalade-job          eitan  he3_chidi
at 2026-11-14T18:00:00Z; vote   long-patience              fumiko sh6_eitan
at 2026-11-14T20:00:00Z; vote   the-town-that-sold-tuesday fumiko fa3_hana fa3_bram
at 2026-11-14T21:00:00Z; vote   the-marmalade-job          bram   he3_chidi he3_fumiko
at 2026-11-15T10:00:00Z; vote   long-patience              bram   sh6_eitan sh6_gus
at 2026-11-15T12:00:00Z; vote   the-marmalade-job          dana   he3_chidi
at 2026-11-15T14:00:00Z; vote   the-town-that-sold-tuesday ann    fa3_hana
at 2026-11-15T20:00:00Z; vote   long-patience              dana   sh6_ann
at 2026-11-16T09:00:00Z; vote   the-marmalade-job          hana   he3_ann
at 2026-11-16T11:00:00Z; vote   long-patience              hana   sh6_eitan
at 2026-11-16T13:00:00Z; vote   the-town-that-sold-tuesday gus    fa3_hana
at 2026-11-17T16:00:00Z; close_round the-marmalade-job chidi
#   round 3 -> chidi 2.5, ann 1, fumiko 0.5, gus 0; round 4 open until 2026-11-24T16:00Z
at 2026-11-18T08:00:00Z; close_round long-patience eitan
#   round 6 -> eitan 3.5, ann 1, gus 0.5; round 7 open until 2026-11-25T08:00Z
at 2026-11-18T09:00:00Z; close_round the-town-that-sold-tuesday hana
#   round 3 -> hana 3.5, bram 0.5; round 4 open until 2026-11-23T09:00Z
at 2026-11-18T11:00:00Z; submit the-marmalade-job          dana   he4_dana
at 2026-11-18T17:00:00Z; submit the-town-that-sold-tuesday chidi  fa4_chidi
at 2026-11-18T20:00:00Z; submit long-patience              hana   sh7_hana
at 2026-11-19T09:00:00Z; submit the-marmalade-job          hana   he4_hana

# what-the-spinner-wanted: created; round 1 open until 2026-11-26T10:00Z
at 2026-11-19T10:00:00Z; p project new what-the-spinner-wanted --title "What the Spinner Wanted" --owner fumiko \
    --rounds 4 --round-length 7d --tag fairy-tale --tag retelling --file "$T/what-the-spinner-wanted.md"
at 2026-11-19T12:00:00Z; submit the-town-that-sold-tuesday gus    fa4_gus
at 2026-11-19T15:00:00Z; submit long-patience              bram   sh7_bram
at 2026-11-20T09:00:00Z; submit what-the-spinner-wanted    bram   sp1_bram
at 2026-11-20T10:00:00Z; submit the-town-that-sold-tuesday ann    fa4_ann --ending
at 2026-11-20T12:00:00Z; vote   the-marmalade-job          eitan  he4_dana
at 2026-11-20T18:00:00Z; submit long-patience              dana   sh7_dana
at 2026-11-20T20:00:00Z; submit what-the-spinner-wanted    hana   sp1_hana
at 2026-11-21T08:00:00Z; vote   the-town-that-sold-tuesday dana   fa4_chidi
at 2026-11-21T09:00:00Z; vote   long-patience              chidi  sh7_hana
at 2026-11-21T11:00:00Z; vote   the-marmalade-job          gus    he4_dana he4_hana
at 2026-11-21T12:00:00Z; submit what-the-spinner-wanted    chidi  sp1_chidi
at 2026-11-21T15:00:00Z; vote   the-town-that-sold-tuesday hana   fa4_chidi fa4_ann
at 2026-11-21T19:00:00Z; vote   long-patience              gus    sh7_hana sh7_dana
at 2026-11-21T21:00:00Z; vote   what-the-spinner-wanted    fumiko sp1_hana
at 2026-11-22T07:00:00Z; vote   what-the-spinner-wanted    dana   sp1_bram sp1_hana
at 2026-11-22T08:00:00Z; vote   the-town-that-sold-tuesday eitan  fa4_gus
at 2026-11-22T09:30:00Z; vote   long-patience              ann    sh7_bram
at 2026-11-22T10:00:00Z; vote   the-marmalade-job          chidi  he4_hana
at 2026-11-22T11:00:00Z; vote   what-the-spinner-wanted    gus    sp1_bram

# ---------------------------------------------------------------------------
rm -rf "$OUT"; mv "$C" "$OUT"
echo "make-demo: wrote $OUT; the demo's clock stopped at $now" >&2
