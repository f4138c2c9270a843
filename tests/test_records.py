"""Bundled record boards: published scores, honoured hints, and the original viewer links.

The scores are checked three ways that do not depend on each other: the data file's column,
the score in the board's published name (``..._470``, ``..._469_a``, ``..._465_5clues``), and
our scorer on the placed tiles.  The links in ORIGINAL_LINKS are copied verbatim from the
viewer's own list (jfbucas/eternityII-viewer init.js, commit 0199d58): reading them, in the
viewer's default, ``jblackwood`` and ``jef`` colour orders, must give the bundled boards.
"""

import re

import numpy as np
import pytest

import edgematch
from edgematch import InputError, format_board, parse_board
from edgematch.data import records

ORIGINAL_LINKS = {
    "Joshua_Blackwood_470": (
        "https://e2.bucas.name/#"
        "puzzle=Joshua_Blackwood_470&board_w=16&board_h=16&board_edges=ajraaftjabvfafpbajefarcjablrajubaf"
        "pjanefajmnabpjafebabifafsbaabfruratiouvvsiptuvewstcugwlwouuicwpdlieiidmocipctoelecigoesccgbabcri"
        "faootisddoudmdsggdlddgopddcluplmwlimemicswttpcehutotvhcwetbajvftratuttdchumstcgvvsdwvvdwvwuhewwl"
        "uhedvlsmsdptemupwtvvdcepemjarprijatdoihltdtmolvwomvcwwvcieesscuhssvtihshltetehwdltdhcdeighrarcjh"
        "jaoelhtileoliiosclwcssitpcscptscicilmclshlehhslgvhcwvgppvwrafpjmbalhmmlluhimulcmimsggmpppgpmhpio"
        "vmmwpohsewhwqsvwiwvovwvqdofafqbgbamhtguqghucmqitecglstpeclhmsevlompgtlehvgqtohievtvpmedutpfafubh"
        "fatplhgiipmqgiemdqsdpmclidsgglodegtohdvohoocsovcucmgoctikgfafiflnalqpliluqghvlddwhpdqdikgdgepkew"
        "iehodwhccosugcuuouoegukwlefarwnqnapdhqutkdvkqtwedkqswegpgspuopihpudqchcueqgqkuousqgpmulswprarsnc"
        "nahqvckwoqqwuwdmewwvdmgttvovmtpkivcslkepkskuupsqgumsgqwsdsrajsnhfavqwhogkqukvgeowkdesothqemklhim"
        "wklklmkqtkuikqgsuigtvsdvktjanvfdnawlqdkgqlvlqgwqklsuhqqvqulimvwkpiloektkuokdckuqkdvpuqkompnajong"
        "baqhqgqmkhqkkmkwgkhoqwqviomokvpmkoeqtmumiqcdhmkqedukwqmpkkjajpbraaqnarkjankbajgnabqbaninabkbankj"
        "abtnajiranhnarenanwrankrarjaar&motifs_order=jblackwood"
    ),
    "Louis_Verhaard_467": (
        "https://e2.bucas.name/#"
        "puzzle=Louis_Verhaard_467&board_w=16&board_h=16&board_edges=abeaacsbabpcafubacrfadpcaftdabtfafjb"
        "aemfaboeacvbaencafoeadofaabdendasvpnphtvuqlhlvmqpsuvhwustqqwjhhwmrmhopprvwppnspwoqwsoqnqbaeqdufa"
        "plouthjllsnhuvusuwovuwswqlhwhjummlljwvvlrnkvpgnnwvjgmtrveadtfqfaovjqjnnvnsnnuhlsmorhsujohhruunhh"
        "lqttvvitkvwvntovjtrurwhtdafwfhbajqphnouqnpmollkprqwljklqrvwkhnlvtmqniommwmsookqmrwpkokuwfackbjfa"
        "pjijuoujmnlokounwuiolkvuwhqklghhqmqgmupmsrtuqpqrpjppuhsjcabhfhcaiqphunrqlktnuvtkijvvvomjqtjohust"
        "qrlupnqrtkknqtjkpjttshvjbachcrbaphkrrphhtwhptwvwvwlwmulwjsiusphslmtpqhwmkprhjnmptqvnvprqcacpbtea"
        "kvrthunvhwkuvlrwlwollmnwijjmhukjtmsuwuhmrhoumkqhvkokrvmkcafvepcarsjpntkskmttrwmmoklwnhskjnthkpgn"
        "skpphvrkoknvqjskovmjmujvfafucnfajronkmnrtrsmmorrlugosgrutrkgglorplulrlslnkolsmwkmsomjgisfafgfqea"
        "osnqnplsstoprqrtgtnqrgrtkoggoiqouksissskoiiswquioriqilirfaelepdanigpllkiogllringnjmirijjggjiqiig"
        "souislgoijjlurijilpriwileadwdhdagimhkkgilqikngwqmtlgjistjnviiomnuvgogsgvjwgsinqwpgtniiwgdadidgda"
        "mpqggmspiwpmwvgwlgvvsqugvgtqmkiggrjkgtmrgigtqwoitgiwwstgdadsdcaaqeacseaepbaegbabveabueaeteaeibae"
        "jbabmdabgcadocacidactcaddaac&board_pieces=002024011057023031056013052039010025040053030001041240"
        "126129219250136251104116243247239245235045035211106112254246255135109167221203077099232034055175"
        "169233113115171102103213160206241178125060050108234226191215165195118228152229193196202017008142"
        "180210190154205121063083225253248173122006051105238200201144182170130218237183166179131015022111"
        "101120256222220161124209134110168242249020012204128133216207208139127230117119114188194059043174"
        "198186223184123107076192132187177172181058018176185231227078087095071212214189197224068049054236"
        "217244252093086062155162199137164156146038044081148070084150140061082158079138143149147036028067"
        "066145097075159141153080088089151092065029027073074163100096090094072085091064157069098032004021"
        "046042005014048047037007009026019016033003"
    ),
    "2009-05-17_MFT": (
        "https://e2.bucas.name/#"
        "puzzle=2009-05-17_MFT&board_w=16&board_h=16&board_edges=awqaawtwamrwaidmaqniampqaibmaefiaiseamdi"
        "awjmaekwawreaeuwaebeaaieqkqatbckrsrbdhrsnjthppnjbnrpfjunsbljdcfbjnpckplnrfgpuhrfbhvhiaihqnmacudn"
        "rgourojgtcoonhgcrtbhufctlrpffjvrptdjlkktgjgkrtrjvjdtiamjmbwadvtbophvdlhnvholgrcgbhvrcgjhpprdvtdh"
        "drhtkksrgobkrjpodjcjmamjwpwatluphbnlnsobolnschhlrrshjvcrrvgvdbbktupgnbnhblobpsnlclusmaqlwbqauglb"
        "nrsgotcrnbjtnjdbkovrcnnovuhnbfsupolfnhbookfhntdkukgtqaikqumalcjusubccjfuunlobnfnvgvnnfrghfofugco"
        "lkggkdkkfkpdduokgspuiaqsmfeajhtfbukhfcfuvvtcfcnvvfccrcvfodscctjdgngtgjfnltvjorltpkbrqawkeuqatkru"
        "knckfkfntjsknvdjcoovvddossvdjtjsghctfvvhvrhvljprbotjwaioqfearvufcouvfprosdtpdnvdopondgbpvddgjopd"
        "cukovhkuhdvhpjldtprjiaqpeteauuutusdurlnstttlsodconroblsnsrgrpbskssgrknplvgknlsjgrslsqamsekiaufnk"
        "dlgfnrkltublsjrcrcljsdfctobnslclgfvlpnkpkpttjtbplfdtmamficeanpocgtjpkhotbfshrbffllubfbdlbgfbchgg"
        "vllhkhulthshbufhdovumaeoekqaoojkjdsooggdsofgfuboukhudvdkfkpvgcjklgrculcgsnulfsknvbsseawbqcqajshc"
        "sghsglvgfoclbghohppgdubpppjujfgprtcfcjvtuspjkutssvduwawvqwaahwawhqawvwaqcmawhmampiambeaijeaegmae"
        "ceamviaepqaitiaqdiaiwaai&board_pieces=0040320600080220510130450140520350440360410470020202442560"
        "990871021252382011701191111350970640050231762082202240710982361211641221922122551610570561590670"
        "850722070690781040680892472091171800580281230952321940621001541471791120861861321870170332002162"
        "292531781632270842421140910731742170110181902412341852521462150832101911731081681180250540900922"
        "351371561551571821712142181621971200310402392432482501431521391442540790820651332300090211511531"
        "341311401161061381092260810611271360150462331691951991722232042221262211101492052060590422371651"
        "961982462021752311881451011241301770550101151130740942511831662130700660760880931500390432251811"
        "672192280771421052111841892032491600340190800961481930750631071031292451581282401410290030270260"
        "16030049050012048038053037006024007001&motifs_order=jef"
    ),
}

NAMES = records.record_names()
SCORE_IN_NAME = re.compile(r"_(4\d\d)(?:_[a-z]|_5clues)?$")


@pytest.fixture(scope="module")
def boards():
    return {name: records.load_record(name) for name in NAMES}


def test_the_famous_boards_are_bundled():
    for name in ["Joshua_Blackwood_470", "JBlackwood+Jef_470", "Louis_Verhaard_467", "Benjamin_Riotte_464",
                 "Igor_Pejic_465_5clues"]:
        assert name in NAMES
    assert len(NAMES) == len(set(n.lower() for n in NAMES))


def test_names_are_recognised_with_or_without_prefix_in_any_case():
    assert records.is_record("record/Joshua_Blackwood_470")
    assert records.is_record("RECORD/joshua_blackwood_470")
    assert records.is_record("louis_verhaard_467_b")
    assert not records.is_record("e2")
    assert not records.is_record("record/")
    assert not records.is_record("record/Joshua_Blackwood_471")
    assert records.record_info("record/jblackwood+jef_470").name == "JBlackwood+Jef_470"


def test_unknown_name_is_an_input_error():
    with pytest.raises(InputError, match="no bundled record board"):
        records.load_record("record/nobody_480")
    with pytest.raises(InputError):
        records.published_score("nobody_480")


@pytest.mark.parametrize("name", NAMES)
def test_score_equals_the_published_score(boards, name):
    board = boards[name]
    info = records.record_info(name)
    assert board.score() == records.published_score(name) == info.score
    assert board.n_placed == info.pieces_placed
    found = SCORE_IN_NAME.search(name)
    if found:
        assert info.score == int(found.group(1))


def test_the_scores_in_names_cover_the_record_list():
    named = sorted({int(m.group(1)) for n in NAMES if (m := SCORE_IN_NAME.search(n))}, reverse=True)
    assert named == [470, 469, 468, 467, 465, 464]


@pytest.mark.parametrize("name", NAMES)
def test_boards_break_nothing_but_joins(boards, name):
    """A record board keeps its hints, its border and every tile once: only joins mismatch."""
    board = boards[name]
    info = records.record_info(name)
    expected_puzzle = "e2-clues" if len(info.fixed_honoured) == 5 else "e2"
    assert board.puzzle == edgematch.load(expected_puzzle)
    assert len(board.puzzle.hints) == len(info.fixed_honoured)
    reasons = board.verify(require_complete=board.is_complete).reasons
    assert all("colours differ" in r for r in reasons), reasons
    if board.is_complete:
        assert len(reasons) == board.puzzle.max_score - board.score()


def test_the_records_honour_the_right_hints(boards):
    for name in ["Joshua_Blackwood_470", "JBlackwood+Jef_469_a", "Louis_Verhaard_467_c"]:
        assert records.record_info(name).fixed_honoured == ("I8",)
        assert boards[name].puzzle.name == "e2"
    for name in ["Benjamin_Riotte_464", "Igor_Pejic_465_5clues"]:
        assert set(records.record_info(name).fixed_honoured) == {"I8", "N3", "C14", "N14", "C3"}
        assert boards[name].puzzle.name == "e2-clues"
    # The 470 is not a five-clue board: on e2-clues, verify reports the clues it breaks.
    on_clues = records.load_record("Joshua_Blackwood_470", edgematch.load("e2-clues"))
    broken = [r for r in on_clues.verify().reasons if r.startswith("hint broken")]
    assert broken


@pytest.mark.parametrize("name", NAMES)
def test_bucas_link_reads_back_to_the_same_board(boards, name):
    board = boards[name]
    link = format_board(board, "bucas").strip()
    back = parse_board(link, board.puzzle, "<url>", "bucas")
    assert back == board and np.array_equal(back.tiles, board.tiles)
    # Without board_pieces the tiles are found from the edges alone (the official tiles
    # are all different up to rotation, so the same tiles must come back).
    edges_only = re.sub(r"&board_pieces=\d+", "", link)
    again = parse_board(edges_only, board.puzzle, "<url>", "bucas")
    assert np.array_equal(again.tiles, board.tiles) and again == board


@pytest.mark.parametrize("name", sorted(ORIGINAL_LINKS))
def test_original_viewer_links_give_the_bundled_boards(boards, name):
    board = boards[name]
    assert parse_board(ORIGINAL_LINKS[name], board.puzzle, "<url>", "bucas") == board
    assert edgematch.load_board(board.puzzle, ORIGINAL_LINKS[name]) == board


def test_load_board_accepts_record_names():
    puzzle = edgematch.load("e2")
    board = edgematch.load_board(puzzle, "record/Louis_Verhaard_467")
    assert board.score() == 467 and board.puzzle is puzzle


def test_a_record_goes_on_any_puzzle_with_the_official_tiles():
    bare = edgematch.load("e2-bare")
    board = records.load_record("Benjamin_Riotte_464", bare)
    assert board.puzzle is bare and board.score() == 464 and board.verify().valid is False
    assert all("colours differ" in r for r in board.verify().reasons)


def test_a_record_refuses_other_tiles():
    e2 = edgematch.load("e2")
    tiles = e2.tiles.copy()
    tiles[[60, 61]] = tiles[[61, 60]]  # same tiles, another numbering
    with pytest.raises(InputError, match="official Eternity II tiles"):
        records.load_record("Joshua_Blackwood_470", edgematch.Puzzle(tiles, 16, 16))
    with pytest.raises(InputError, match="official Eternity II tiles"):
        records.load_record("Joshua_Blackwood_470", edgematch.load("clue1"))


def test_record_info_facts():
    info = records.record_info("Joshua_Blackwood_230")
    assert (info.pieces_placed, info.score, info.fixed_honoured) == (230, 429, ("I8",))
    assert info.original_motifs_order == "jblackwood"
    assert "init.js" in info.source
    assert records.record_info("Igor_Pejic_465_5clues").source.startswith("igorpejic/")
