"""Market day (rulebook: the action spaces — Market; solo: Karla's market reaction): the
trigger player sells first (first sale free), then clockwise rounds of selling at 1 green +
1 time each until everyone has passed; in a solo game Karla serves one customer on her go;
then the refill."""

from __future__ import annotations

from companion.village.commands import MarketPass, MarketServe
from companion.village.rules.context import Ctx
from companion.village.rules.errors import require
from companion.village.rules.payment import check_customer_payment, pay, spend_coins
from companion.village.rules.time_track import spend_time
from companion.village.state import MarketDay


def start_market_day(ctx: Ctx, trigger: int) -> None:
    st = ctx.state
    st.market_day = MarketDay(trigger=trigger, seller=trigger)
    ctx.note("market_day", player=st.players[trigger].name)
    if st.solo:
        # Serving a customer is one of Karla's reactions (單人遊戲 卡拉的(反應)行動 市集), and
        # 「卡拉不會在你執行「水井」行動後從遊戲版圖上拿取方塊(或「反應」)！」: in a market day you
        # hold through the well she does not serve (reading "karla_after_well").
        after_well = (st.players[trigger].kind == "human" and st.space_taken == "well"
                      and ctx.reading("karla_after_well") == "no_reaction")
        st.market_day.karla_to_serve = not after_well
    _settle(ctx)


def open_front_spaces(ctx: Ctx) -> int:
    """How many front (blue) spaces this player count uses, from the left; the others
    stay empty all game (000 遊戲設置 6, 3人遊戲時: 標示4-5的空格不要放置板塊; 2人遊戲時:
    標示3-5以及標示4-5的空格不要放置板塊)."""
    return ctx.comp.front_spaces(len(ctx.state.players))


def front_open(ctx: Ctx) -> list[bool]:
    """Per front space, whether it is used at this table (see open_front_spaces)."""
    used = open_front_spaces(ctx)
    return [slot < used for slot in range(len(ctx.state.market_front))]


def available_slots(ctx: Ctx) -> list[int]:
    st = ctx.state
    md = st.market_day
    emptied = md.emptied if md else []
    return [i for i, full in enumerate(st.market_front) if full and i not in emptied]


def serve(ctx: Ctx, cmd: MarketServe) -> None:
    st = ctx.state
    md = st.market_day
    require(md is not None, "phase", "no market day is under way", key="rule.no_market_day")
    assert md is not None
    seller = md.seller
    p = st.players[seller]
    require(cmd.slot in available_slots(ctx), "slot",
            f"no customer waits on front space {cmd.slot + 1}",
            key="rule.no_customer_on_space", params={"slot": cmd.slot + 1})
    free = seller == md.trigger and not md.free_sale_used
    check_customer_payment(ctx, cmd.pay)
    pay(ctx, seller, cmd.pay)
    if not free:
        extra = ctx.comp.counts("market_extra_sale")
        green = int(extra["green"])
        if cmd.extra_with_coin:
            require(p.coins >= green, "extra_with_coin", f"{p.name} has no coin to spare",
                    key="rule.no_coin_to_spare", params={"name": p.name})
            spend_coins(ctx, seller, green)
        else:
            require(p.cubes.get("green", 0) >= green, "extra_with_coin",
                    f"{p.name} needs {green} green cube for this sale (or pay with a coin)",
                    key="rule.sale_needs_green", params={"name": p.name, "green": green})
            p.cubes["green"] -= green
            st.supply["green"] = st.supply.get("green", 0) + green
        spend_time(ctx, seller, int(extra["time"]))
    if seller == md.trigger:
        md.free_sale_used = True
    take_tile(ctx, seller, cmd.slot, cmd.points)
    _advance_seller(ctx)


def take_tile(ctx: Ctx, player: int, slot: int, points: int) -> None:
    st = ctx.state
    md = st.market_day
    assert md is not None
    st.market_front[slot] = False
    md.emptied.append(slot)
    md.sales.append((player, slot))
    st.players[player].customers.append(points)
    ctx.note("served", player=st.players[player].name, slot=slot + 1)


def pass_(ctx: Ctx, _cmd: MarketPass) -> None:
    st = ctx.state
    md = st.market_day
    require(md is not None, "phase", "no market day is under way", key="rule.no_market_day")
    assert md is not None
    md.passed.append(md.seller)
    _advance_seller(ctx)


def _advance_seller(ctx: Ctx) -> None:
    st = ctx.state
    md = st.market_day
    assert md is not None
    n = len(st.players)
    for k in range(1, n + 1):
        cand = (md.seller + k) % n
        if cand not in md.passed:
            md.seller = cand
            break
    _settle(ctx)


def _settle(ctx: Ctx) -> None:
    """Let Karla act when it is her go; end the market day when nobody can sell."""
    st = ctx.state
    md = st.market_day
    assert md is not None
    while True:
        if not available_slots(ctx) or len(md.passed) >= len(st.players):
            end_market_day(ctx)
            return
        if st.players[md.seller].kind == "karla":
            if md.karla_to_serve:
                karla_market_go(ctx)
            md.passed.append(md.seller)
            n = len(st.players)
            for k in range(1, n + 1):
                cand = (md.seller + k) % n
                if cand not in md.passed:
                    md.seller = cand
                    break
            continue
        if md.seller in md.passed:
            end_market_day(ctx)
            return
        return


def karla_market_go(ctx: Ctx) -> None:
    """Karla serves one customer per market day: the front one, or the former second one if
    you triggered the market day and served the front one."""
    st = ctx.state
    md = st.market_day
    assert md is not None
    slots = available_slots(ctx)
    if not slots:
        return
    assert st.karla is not None
    karla = st.karla.player
    human_took_front = any(p == md.trigger and s == 0 for p, s in md.sales)
    wanted = 1 if (md.trigger != karla and human_took_front) else 0
    slot = wanted if wanted in slots else slots[0]
    take_tile(ctx, karla, slot, 0)


def end_market_day(ctx: Ctx) -> None:
    st = ctx.state
    md = st.market_day
    assert md is not None
    st.market_day = None
    # A death owed in this market day may still wait for its answer (the last sale passed
    # the quill and emptied the market). Remember whose market day it was: if that death
    # fills the last slot, the final turns follow the market-day rule (遊戲結束 特殊情況).
    for waiting in st.pending:
        if waiting.kind == "death":
            waiting.detail.market_trigger = md.trigger
    if md.sales:
        refill(ctx)
    else:
        ctx.note("market_no_sale")
    # Deaths owed during the market day were asked for at once; the turn goes on.


def refill(ctx: Ctx) -> list[tuple[str, int, int]]:
    """Queue tiles (front of the queue first) into the empty front spaces, the rest of the
    queue moves forward, then the queue is filled from the face-down stack."""
    st = ctx.state
    steps: list[tuple[str, int, int]] = []
    queue = [i for i, full in enumerate(st.market_queue) if full]
    open_front = open_front_spaces(ctx)  # spaces closed at setup stay empty
    for slot, full in enumerate(st.market_front[:open_front]):
        if not full and queue:
            q = queue.pop(0)
            st.market_queue[q] = False
            st.market_front[slot] = True
            steps.append(("refill_front", q + 1, slot + 1))
    remaining = [i for i, full in enumerate(st.market_queue) if full]
    for new_pos, old in enumerate(remaining):
        if new_pos != old:
            st.market_queue[old] = False
            st.market_queue[new_pos] = True
            steps.append(("refill_queue", old + 1, new_pos + 1))
    for i, full in enumerate(st.market_queue):
        if not full and st.customer_stack > 0:
            st.market_queue[i] = True
            st.customer_stack -= 1
            steps.append(("refill_stack", 0, i + 1))
    for key, src, dst in steps:
        ctx.note(key, src=src, dst=dst)
    if not any(st.market_front) and not any(st.market_queue):
        ctx.note("market_empty")
    return steps
