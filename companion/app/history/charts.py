"""The statistics screen's charts (flet-charts), sized for a 360 px phone.

Every chart comes with its words outside the canvas: a title, a legend of coloured
squares with translated names, and axis labels as ft.Text (so the theme's colours and the
CJK fonts apply in light and dark). Colours are mid tones that read on both backgrounds.
Chart bars have no DOM nodes: the same numbers are in the table view.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date

import flet as ft
import flet_charts as fch

from companion.app.kit import SMALL_TEXT

CHART_HEIGHT = 220
AXIS_TEXT = 11
PALETTE = (ft.Colors.BLUE_400, ft.Colors.ORANGE_400, ft.Colors.GREEN_500,
           ft.Colors.PURPLE_300, ft.Colors.RED_300, ft.Colors.TEAL_300,
           ft.Colors.BROWN_300, ft.Colors.PINK_300, ft.Colors.INDIGO_300,
           ft.Colors.AMBER_600)
MAX_BARS = 8  # more players than this: the most active ones (the table has all)
MAX_LINES = 4
MAX_POINTS = 48  # per line: a 360 px phone cannot show more, the client need not hold more


def colour(index: int) -> str:
    return PALETTE[index % len(PALETTE)]


def _axis_text(text: str) -> ft.Text:
    return ft.Text(text, size=AXIS_TEXT, color=ft.Colors.ON_SURFACE_VARIANT,
                   no_wrap=True, overflow=ft.TextOverflow.ELLIPSIS)


def legend(entries: Sequence[tuple[str, str]]) -> ft.Control:
    """(label, colour) pairs as wrapped chips of a square and the label."""
    return ft.Row([ft.Row([ft.Container(width=12, height=12, bgcolor=c, border_radius=2),
                           ft.Text(label, size=SMALL_TEXT)], spacing=4, tight=True)
                   for label, c in entries], wrap=True, spacing=12, run_spacing=4)


def _nice_max(value: float) -> float:
    """The top of the value axis: four equal whole steps (1, 2, 3, 5, 10 ... each)."""
    for unit in (1, 2, 3, 5, 10, 15, 20, 25, 50, 75, 100, 250, 500, 1000):
        if unit * 4 >= value:
            return float(unit * 4)
    return float(int(value / 4000 + 1) * 4000)


def _left_axis(top: float) -> fch.ChartAxis:
    step = top / 4
    return fch.ChartAxis(label_size=32, labels=[
        fch.ChartAxisLabel(value=round(step * i, 2), label=_axis_text(f"{step * i:g}"))
        for i in range(5)])


def _bottom_axis(labels: Sequence[str]) -> fch.ChartAxis:
    width = max(44, min(96, 300 // max(len(labels), 1)))
    return fch.ChartAxis(label_size=28, labels=[
        fch.ChartAxisLabel(value=i, label=ft.Container(
            _axis_text(short(text, width // 7)), width=width,
            alignment=ft.Alignment.CENTER))
        for i, text in enumerate(labels)])


def short(name: str, width: int = 6) -> str:
    return name if len(name) <= width else name[:width - 1] + "…"


def stacked_bars(groups: Sequence[tuple[str, Sequence[float]]],
                 series_colours: Sequence[str], identifier: str) -> ft.Control:
    """One stacked bar per (label, values); value i in colour i."""
    top = _nice_max(max((sum(v) for _, v in groups), default=0))
    bar_groups = []
    for x, (_, values) in enumerate(groups):
        items, base = [], 0.0
        for i, v in enumerate(values):
            if v > 0:
                items.append(fch.BarChartRodStackItem(from_y=base, to_y=base + v,
                                                      color=series_colours[i]))
                base += v
        bar_groups.append(fch.BarChartGroup(x=x, rods=[fch.BarChartRod(
            from_y=0, to_y=base, width=18, stack_items=items, border_radius=2,
            color=ft.Colors.TRANSPARENT)]))
    return _framed(fch.BarChart(
        groups=bar_groups, max_y=top, min_y=0, interactive=False,
        left_axis=_left_axis(top), bottom_axis=_bottom_axis([g for g, _ in groups]),
        horizontal_grid_lines=fch.ChartGridLines(interval=top / 4,
                                                 color=ft.Colors.OUTLINE_VARIANT, width=1),
        height=CHART_HEIGHT, expand=True), identifier)


def bars(values: Sequence[tuple[str, float]], bar_colour: str, identifier: str) -> ft.Control:
    top = _nice_max(max((v for _, v in values), default=0))
    groups = [fch.BarChartGroup(x=x, rods=[fch.BarChartRod(
        from_y=0, to_y=v, width=18, color=bar_colour, border_radius=2)])
        for x, (_, v) in enumerate(values)]
    return _framed(fch.BarChart(
        groups=groups, max_y=top, min_y=0, interactive=False,
        left_axis=_left_axis(top), bottom_axis=_bottom_axis([g for g, _ in values]),
        horizontal_grid_lines=fch.ChartGridLines(interval=top / 4,
                                                 color=ft.Colors.OUTLINE_VARIANT, width=1),
        height=CHART_HEIGHT, expand=True), identifier)


def buckets(series: Sequence[Sequence[tuple[date, int]]],
            most: int = MAX_POINTS) -> tuple[list[date], list[list[tuple[int, float]]]]:
    """Points to draw: one per day played, or, with more days than `most`, one per equal
    stretch of time; a series' point is the mean of its scores there. Returns the first
    day of each bucket and, per series, (bucket, mean) pairs."""
    days = sorted({d for s in series for d, _ in s})
    if not days:
        return [], [[] for _ in series]
    if len(days) <= most:
        index = {d: i for i, d in enumerate(days)}
        starts = days

        def bucket(d: date) -> int:
            return index[d]
    else:
        first, span = days[0].toordinal(), days[-1].toordinal() - days[0].toordinal() + 1
        starts = [date.fromordinal(first + span * i // most) for i in range(most)]

        def bucket(d: date) -> int:
            return min(most - 1, (d.toordinal() - first) * most // span)
    out = []
    for s in series:
        sums: dict[int, list[int]] = {}
        for d, v in s:
            sums.setdefault(bucket(d), []).append(v)
        out.append([(b, round(sum(v) / len(v), 1)) for b, v in sorted(sums.items())])
    return starts, out


def lines(series: Sequence[Sequence[tuple[date, int]]], series_colours: Sequence[str],
          identifier: str, first_last: tuple[str, str]) -> ft.Control:
    """Scores over time, one line per series; x is the play's position in time (see
    `buckets`: at most MAX_POINTS points a line, whatever the history holds), labelled
    with the first and last date."""
    starts, points = buckets(series)
    top = _nice_max(max((v for s in points for _, v in s), default=0))
    data = [fch.LineChartData(points=[fch.LineChartDataPoint(x=x, y=y) for x, y in pts],
                              color=c, stroke_width=2, point=len(pts) <= 24, curved=False)
            for pts, c in zip(points, series_colours, strict=False)]
    last = max(len(starts) - 1, 1)
    bottom = fch.ChartAxis(label_size=24, labels=[
        fch.ChartAxisLabel(value=0, label=_axis_text(first_last[0])),
        fch.ChartAxisLabel(value=last, label=_axis_text(first_last[1]))])
    return _framed(fch.LineChart(
        data_series=data, min_y=0, max_y=top, min_x=0, max_x=last, interactive=False,
        left_axis=_left_axis(top), bottom_axis=bottom,
        horizontal_grid_lines=fch.ChartGridLines(interval=top / 4,
                                                 color=ft.Colors.OUTLINE_VARIANT, width=1),
        height=CHART_HEIGHT, expand=True), identifier)


def _framed(chart: ft.Control, identifier: str) -> ft.Control:
    return ft.Semantics(identifier=identifier, container=True, content=ft.Container(
        ft.Row([chart]), padding=ft.Padding.only(right=20, top=8)))
