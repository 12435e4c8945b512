"""The settlement sheet laid out on one A4 PDF page with `pdf.Page`: the same content as
the printed page — final table, payments, chart, and as much of the log as fits."""
from __future__ import annotations

from typing import Callable

from webui.printing.chart import Chart
from webui.words.i18n import hand_name, house
from webui.printing.pdf import Page
from webui.printing.fonts import cjk_font

MARGIN = 40
GREY = "#666666"
RULE = "#bbbbbb"


def _signed(value: int) -> str:
    return f"{value:+,}" if value else ""


def _standings(page: Page, y: float, data: dict, t: Callable) -> float:
    cur = data["sheet"].get("currency", "")
    columns = [(MARGIN, "settle.place", "left"), (MARGIN + 38, "settle.player", "left"),
               (MARGIN + 215, "settle.points", "right"), (MARGIN + 270, "settle.uma", "right"),
               (MARGIN + 320, "settle.oka", "right"), (MARGIN + 380, "settle.result", "right"),
               (MARGIN + 425, "settle.chips", "right"), (MARGIN + 515, "settle.money", "right")]
    wanted = {3: data["columns"]["uma"], 4: data["columns"]["oka"], 6: data["columns"]["chips"]}
    shown = [i for i in range(len(columns)) if wanted.get(i, True)]
    for i in shown:
        x, key, align = columns[i]
        page.text(x, y, t(key), 8, True, align, GREY)
    page.line(MARGIN, y + 4, MARGIN + 515, y + 4, 0.6, RULE)
    y += 17
    for st in data["game"]["standings"]:
        cells = [str(st["place"]), st["name"], f"{st['score']:,}", _signed(st["uma"]), _signed(st["oka"]),
                 f"{st['result']:+,}", f"{st['chips']:+d}" if st["chips"] else "", f"{st['money']:+,.2f} {cur}".strip()]
        for index in shown:
            x, _, align = columns[index]
            page.text(x, y, cells[index], 10, index in (5, 7), align)
        y += 16
    return y


def _payments(page: Page, y: float, data: dict, t: Callable) -> float:
    cur = data["sheet"].get("currency", "")
    payments = data["sheet"]["payments"]
    if not payments:
        page.text(MARGIN, y, t("settle.nothing"), 10, colour=GREY)
        return y + 16
    for p in payments:
        page.text(MARGIN, y, f"{t('settle.pays', payer=house(p['from']), payee=house(p['to']))}:", 10)
        page.text(MARGIN + 260, y, f"{p['amount']:,.2f} {cur}".strip(), 10, True, "right")
        y += 15
    return y


def _chart(page: Page, top: float, chart: Chart, players: list[str]) -> float:
    left = MARGIN
    for y, label in chart.y_ticks:
        page.line(left + 40, top + y, left + chart.width - 6, top + y, 0.3, "#dddddd")
        page.text(left + 37, top + y + 3, label, 6.5, align="right", colour=GREY)
    if chart.baseline is not None:
        page.line(left + 40, top + chart.baseline, left + chart.width - 6, top + chart.baseline, 0.6, GREY, (3, 2))
    for x, label in chart.x_ticks:
        page.text(left + x, top + chart.height - 3, label, 6.5, align="center", colour=GREY)
    for colour, points in chart.lines:
        page.polyline([(left + x, top + y) for x, y in points], 1.6, colour)
    y = top + chart.height + 12
    x = left + 40
    for (colour, _), name in zip(chart.lines, players):
        page.rect(x, y - 6, 10, 6, fill=colour)
        page.text(x + 14, y, name, 8)
        x += 100
    return y + 10


def _log(page: Page, y: float, log: list, players: list[str], t: Callable, bottom: float) -> float:
    columns = [MARGIN, MARGIN + 20, MARGIN + 78]
    seat_x = [MARGIN + 515 - 62 * (len(players) - 1 - i) for i in range(len(players))]
    page.text(columns[0], y, "#", 8, True, colour=GREY)
    page.text(columns[1], y, t("log.hand"), 8, True, colour=GREY)
    page.text(columns[2], y, t("log.what"), 8, True, colour=GREY)
    for x, name in zip(seat_x, players):
        page.text(x, y, name, 8, True, "right", GREY)
    page.line(MARGIN, y + 4, MARGIN + 515, y + 4, 0.6, RULE)
    y += 14
    size = 8 if len(log) <= 30 else 6.5
    step = size + 3.5
    shown = 0
    for hand, text in log:
        if y > bottom:
            page.text(MARGIN, y, f"… {len(log) - shown} more", size, colour=GREY)
            break
        label = hand_name(hand["round_wind"], hand["hand"], hand.get("honba", 0))
        page.text(columns[0], y, str(hand["number"]), size)
        page.text(columns[1], y, label, size)
        page.text(columns[2], y, text[:60], size)
        for x, d in zip(seat_x, hand["deltas"]):
            page.text(x, y, f"{d:+,}" if d else "·", size, align="right",
                      colour="#1c7c3c" if d > 0 else "#c8102e" if d < 0 else GREY)
        y += step
        shown += 1
    return y


def settlement_pdf(game_session, data: dict, log: list, chart: Chart, t: Callable) -> bytes:
    page = Page(cjk_font())
    title = f"{t('settle.title')} — {game_session.title or ' · '.join(data['players'])}"
    page.text(MARGIN, 52, title, 16, True)
    subtitle = f"{game_session.created_at[:10]} · {t('rules.' + data['config']['rules'])}"
    if not data["finished"]:
        subtitle += f" · {t('settle.in_progress')}"
    page.text(MARGIN, 68, subtitle, 9, colour=GREY)
    page.line(MARGIN, 76, MARGIN + 515, 76, 1.0)
    page.text(MARGIN, 98, t("settle.final"), 12, True)
    y = _standings(page, 116, data, t)
    page.text(MARGIN, y + 14, t("settle.payments"), 12, True)
    y = _payments(page, y + 32, data, t)
    page.text(MARGIN, y + 14, t("session.chart"), 12, True)
    y = _chart(page, y + 22, chart, data["players"])
    page.text(MARGIN, y + 14, t("session.log"), 12, True)
    _log(page, y + 32, log, data["players"], t, page.height - 36)
    page.text(MARGIN + 515, page.height - 20, "Tenbou", 7, align="right", colour=GREY)
    return page.render(title)
