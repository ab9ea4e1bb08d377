"""``/game learn [course:]``: a game's course of short lessons, privately (issue 34).

The courses and the learner's progress are ``bot/domain/learn/``. Everything here is the
learner's own ephemeral message, edited in place as they go: the course list with ticks, then
a step (its picture, its sentences, its task) with buttons that name the step they belong to
(``idz:le:COURSE:LESSON:STEP:ACTION``, the step counted from 1), so they work after a
restart and an old message's buttons answer the step they show:

- Continue (a step that only tells), a button per choice, or Answer (a move, typed in a
  form as in a game); a wrong answer is shown with its reason, and from then on a Hint
  button shows the answer;
- Courses goes back to the list (``idz:lc:all``; ``idz:lc:COURSE`` opens a course where the
  learner stopped);
- after the course's last step, Play the easy bot challenges the bot as ``/game challenge``
  does, friendly, at the easy level.
"""

from __future__ import annotations

import io
import logging
import re
from typing import Any

import discord
from discord import app_commands

from bot.domain.learn import (
    CHOOSE,
    MOVE,
    READ,
    Answered,
    Place,
    course_ids,
    load_course,
    place_of,
)
from bot.domain.service import NotFound, ServiceError

from . import challenge_flow
from .common.answers import SORRY, acknowledge, answer_error, refuse, tell_with
from .common.buttons import PersistentButton, guarded
from .common.client import service
from .common.options import ChallengeOptions, parse_id
from .common.text import clip

log = logging.getLogger(__name__)

PICTURE = "lesson.png"
EASY = "easy"  # the bot's level offered at the end of a course
ALL = "all"  # CourseButton's course: the list of courses
ANSWER_LIMIT = 100  # characters of a typed answer (no move is longer)
NO_STEP = "This lesson step is not there any more: `/game learn` shows the courses afresh."
TASK_FOOTERS = {
    MOVE: "Press Answer and type your move as in a game.",
    CHOOSE: "Choose an answer.",
    READ: "Press Continue.",
}
EMBED_LIMIT = 4096
# A step in a custom id: the course, the lesson and the step counted from 1.
STEP_ID = r"(?P<course>[a-z0-9-]{1,30}):(?P<lesson>[a-z0-9-]{1,40}):(?P<step>[0-9]{1,4})"
FORM = re.compile(f"idz:la:{STEP_ID}")
MOVE_FIELD = "move"  # the answer form's one field
NAME_THE_COURSE = "Name the course too: `/game learn course:shax answer:d2`."
FORM_SECONDS = 900  # a form left open longer is still answered, by form_submitted


# ---- buttons --------------------------------------------------------------------------


class LessonButton(
    PersistentButton,
    template=f"idz:le:{STEP_ID}:(?P<action>go|answer|hint|bot|c[0-9])",
):
    """A button of a step: ``go`` (Continue), ``cN`` (the Nth choice), ``answer`` (the form
    for a move), ``hint``, or ``bot`` (the game against the easy bot, after the course)."""

    def __init__(
        self,
        course: str,
        lesson: str,
        step: int | None,
        action: str,
        label: str = "Continue",
        style: discord.ButtonStyle = discord.ButtonStyle.primary,
    ):
        super().__init__("le", course, lesson, step, action, label=clip(label, 80), style=style)
        self.course = course
        self.lesson = lesson
        self.step = step
        self.action = action

    async def callback(self, interaction: discord.Interaction) -> None:
        # The form and the public challenge must be the click's first answer: no deferring.
        if self.action in ("answer", "bot"):
            await _unacknowledged(self, interaction)
        else:
            await self._clicked(interaction)

    @guarded
    async def _clicked(self, interaction: discord.Interaction) -> None:
        said = self.said()
        if said is None:
            await refuse(interaction, NO_STEP)
        elif self.action == "hint" and self.step is not None:
            await show_hint(interaction, self.course, self.lesson, self.step)
        else:
            await answer_step(interaction, self.course, self.lesson, self.step, said)

    def said(self) -> str | None:
        """What the button answers: nothing (Continue, Hint), or its choice's label; None
        when the step, or that button on it, is not there (a stale or forged button)."""
        place = _place_or_none(self.course, self.lesson, self.step)
        if place is None:
            return None
        if self.action == "go":
            return "" if place.step.task == READ else None
        if self.action.startswith("c"):
            index = int(self.action[1:])
            return place.step.choices[index] if index < len(place.step.choices) else None
        return ""


class CourseButton(PersistentButton, template=r"idz:lc:(?P<course>[a-z0-9-]{1,30})"):
    """Opens a course where the learner stopped, or (``all``) the list of courses."""

    def __init__(self, course: str, label: str = "Courses"):
        style = discord.ButtonStyle.secondary
        super().__init__("lc", course, label=clip(label, 80), style=style)
        self.course = course

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        if self.course == ALL:
            await interaction.edit_original_response(**await list_message(interaction))
        else:
            await show_course(interaction, self.course, edit=True)


async def _unacknowledged(button: LessonButton, interaction: discord.Interaction) -> None:
    """The Answer and Play buttons, answered without deferring, errors told privately."""
    try:
        place = _place_or_none(button.course, button.lesson, button.step)
        if place is None:
            await refuse(interaction, NO_STEP)
        elif button.action == "answer":
            await interaction.response.send_modal(AnswerForm(place))
        else:
            await play_easy_bot(interaction, place)
    except Exception:
        log.exception("lesson button %s failed", button.custom_id)
        await refuse(interaction, SORRY)


class AnswerForm(discord.ui.Modal):
    """The form of a move answer: one line, read as the game reads a move. Its custom id
    names the step (``idz:la:COURSE:LESSON:STEP``), and ``form_submitted`` answers it by
    that id (the form has no ``on_submit``): a form still open across a restart is
    answered too."""

    def __init__(self, place: Place):
        title = clip(f"{place.course.title}: {place.lesson.title}", 45)
        ids = (place.course.id, place.lesson.id, str(place.index + 1))
        super().__init__(title=title, timeout=FORM_SECONDS, custom_id=":".join(("idz:la", *ids)))
        self.move = discord.ui.TextInput(
            label="Your move",
            custom_id=MOVE_FIELD,
            placeholder="as in a game",
            max_length=ANSWER_LIMIT,
        )
        self.add_item(self.move)


async def form_submitted(interaction: discord.Interaction) -> None:
    """Answer a submitted lesson form (every interaction comes here: the others are left
    alone)."""
    if interaction.type is not discord.InteractionType.modal_submit:
        return
    data: Any = interaction.data or {}
    form = FORM.fullmatch(str(data.get("custom_id", "")))
    if form is None:
        return
    await acknowledge(interaction)
    typed = _field(data.get("components", []), MOVE_FIELD) or ""
    try:
        step = parse_id(form["step"])
        await answer_step(interaction, form["course"], form["lesson"], step, typed[:ANSWER_LIMIT])
    except Exception:
        log.exception("lesson form %s failed", data.get("custom_id"))
        await refuse(interaction, SORRY)


def _field(components: Any, custom_id: str) -> str | None:
    """The value typed in the form's field ``custom_id``, wherever its rows nest it."""
    if isinstance(components, list):
        for component in components:
            found = _field(component, custom_id)
            if found is not None:
                return found
    elif isinstance(components, dict):
        if components.get("custom_id") == custom_id and isinstance(components.get("value"), str):
            return components["value"]
        for key in ("components", "component"):
            found = _field(components.get(key), custom_id)
            if found is not None:
                return found
    return None


# ---- flows ----------------------------------------------------------------------------


async def show(interaction: discord.Interaction, course: str | None, answer: str | None) -> None:
    """``/game learn``: the list of courses, the named course where the learner stopped, or
    (``answer``) the answer to its step, typed as a move is in a game."""
    await acknowledge(interaction)
    if course is None and answer is None:
        await _send(interaction, await list_message(interaction))
    elif course is None:
        await refuse(interaction, NAME_THE_COURSE)
    elif answer is None:
        await show_course(interaction, course[:ANSWER_LIMIT], edit=False)
    else:
        await answer_typed(interaction, course[:ANSWER_LIMIT], answer[:ANSWER_LIMIT])


async def answer_typed(interaction: discord.Interaction, course: str, text: str) -> None:
    """The answer to the step the learner is at, as a new private message."""
    learning = service(interaction).learning
    user = interaction.user.id
    try:
        place = await learning.resume(user, course)
        ids = (place.course.id, place.lesson.id, place.index)
        answered = await learning.answer(user, *ids, text)
    except ServiceError as error:
        await answer_error(interaction, error)
        return
    await _send(interaction, await answered_message(interaction, answered))


async def show_course(interaction: discord.Interaction, course: str, *, edit: bool) -> None:
    try:
        place = await service(interaction).learning.resume(interaction.user.id, course)
    except ServiceError as error:
        await answer_error(interaction, error)
        return
    message = await step_message(interaction, place)
    if edit:
        await _edit(interaction, message)
    else:
        await _send(interaction, message)


async def answer_step(
    interaction: discord.Interaction, course: str, lesson: str, step: int | None, text: str
) -> None:
    """Check the answer to the step; show the reason, or the next step."""
    if step is None:
        await refuse(interaction, NO_STEP)
        return
    learning = service(interaction).learning
    try:
        answered = await learning.answer(interaction.user.id, course, lesson, step - 1, text)
    except ServiceError as error:
        await answer_error(interaction, error)
        return
    await _edit(interaction, await answered_message(interaction, answered))


async def show_hint(interaction: discord.Interaction, course: str, lesson: str, step: int) -> None:
    """The step's answer, shown over the step once the learner tried it."""
    learning = service(interaction).learning
    try:
        hint = await learning.hint(interaction.user.id, course, lesson, step - 1)
        place = await learning.open(interaction.user.id, course, lesson, step - 1)
    except ServiceError as error:
        await answer_error(interaction, error)
        return
    await _edit(
        interaction, await step_message(interaction, place, said=f"💡 The answer: **{hint}**")
    )


async def play_easy_bot(interaction: discord.Interaction, place: Place) -> None:
    """A friendly challenge to the easy bot, as ``/game challenge opponent:@bot`` makes."""
    me = interaction.guild.me if interaction.guild is not None else None
    if me is None:
        await refuse(interaction, "Games are played in servers, not in direct messages.")
        return
    options = ChallengeOptions(opponent=me, level=EASY, rated=False, time=None)
    course = place.course
    await challenge_flow.challenge(interaction, course.game, options, variants=course.variants)


# ---- messages -------------------------------------------------------------------------


async def list_message(interaction: discord.Interaction) -> dict[str, Any]:
    """The courses, each with the learner's ticks, and a button to open each."""
    standings = await service(interaction).learning.standings(interaction.user.id)
    lines, view = [], discord.ui.View(timeout=None)
    for standing in standings:
        course = standing.course
        total = len(course.lessons)
        done = sum(lesson.id in standing.done for lesson in course.lessons)
        if standing.finished:
            mark, progress = "✅", f"all {total} lessons done"
        elif standing.started:
            mark, progress = "▶️", f"{done} of {total} lessons done"
        else:
            mark, progress = "▫️", f"{total} lessons"
        lines.append(f"{mark} **{course.title}** ({progress}): {course.summary}")
        view.add_item(
            CourseButton(course.id, label=("✅ " if standing.finished else "") + course.title)
        )
    embed = discord.Embed(
        title="Learn to play",
        description=clip("\n".join(lines), EMBED_LIMIT),
    )
    embed.set_footer(text="Private to you. Pick a course: it goes on where you stopped.")
    return {"embed": embed, "view": view, "attachments": []}


async def step_message(
    interaction: discord.Interaction, place: Place, *, said: str = ""
) -> dict[str, Any]:
    """A step: its picture, its sentences after ``said`` (the last answer's verdict), and
    its buttons."""
    course, lesson, step = place.course, place.lesson, place.step
    number = course.lessons.index(lesson) + 1
    title = f"{course.title} · lesson {number}/{len(course.lessons)}: {lesson.title}"
    text = f"{said}\n\n{step.say}" if said else step.say
    embed = discord.Embed(title=clip(title, 256), description=clip(text, EMBED_LIMIT))
    embed.set_image(url=f"attachment://{PICTURE}")
    embed.set_footer(
        text=f"Step {place.index + 1} of {len(lesson.steps)}. {TASK_FOOTERS[step.task]}"
    )
    picture = await service(interaction).lesson_picture(place)
    return {
        "embed": embed,
        "view": step_view(place),
        "attachments": [discord.File(io.BytesIO(picture), filename=PICTURE)],
    }


def step_view(place: Place) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    ids = (place.course.id, place.lesson.id, place.index + 1)
    step = place.step
    if step.task == READ:
        view.add_item(LessonButton(*ids, "go"))
    elif step.task == CHOOSE:
        for index, label in enumerate(step.choices):
            style = discord.ButtonStyle.primary
            view.add_item(LessonButton(*ids, f"c{index}", label=label, style=style))
    else:
        view.add_item(LessonButton(*ids, "answer", label="Answer"))
    if place.hint_allowed:
        view.add_item(LessonButton(*ids, "hint", label="Hint", style=discord.ButtonStyle.secondary))
    view.add_item(CourseButton(ALL))
    return view


async def answered_message(interaction: discord.Interaction, answered: Answered) -> dict[str, Any]:
    verdict = answered.verdict
    if not verdict.right:
        return await step_message(
            interaction, answered.place, said=f"❌ Not that: {verdict.reason}"
        )
    said = f"✅ {verdict.reason}" if verdict.reason else ""
    if answered.lesson_done:
        said += f"\n🏁 Lesson done: **{answered.place.lesson.title}**."
    if answered.next is not None:
        return await step_message(interaction, answered.next, said=said.strip())
    return finished_message(answered.place, said.strip())


def finished_message(place: Place, said: str) -> dict[str, Any]:
    """After the course's last step: well done, and a game against the easy bot."""
    course = place.course
    text = (
        f"{said}\n\n🎓 You have been through the whole {course.title} course. Try it for real:"
        " a friendly game against the bot at the easy level (`/game hint` works there)."
    )
    embed = discord.Embed(title=f"{course.title}: course complete", description=text.strip())
    view = discord.ui.View(timeout=None)
    ids = (course.id, place.lesson.id, place.index + 1)
    view.add_item(
        LessonButton(*ids, "bot", label="Play the easy bot", style=discord.ButtonStyle.success)
    )
    view.add_item(CourseButton(ALL))
    return {"embed": embed, "view": view, "attachments": []}


async def _send(interaction: discord.Interaction, message: dict[str, Any]) -> None:
    """Send ``message`` as a new private answer (its pictures as files)."""
    files = message.get("attachments", [])
    rest = {key: value for key, value in message.items() if key != "attachments"}
    await tell_with(interaction, {**rest, "files": files} if files else rest)


async def _edit(interaction: discord.Interaction, message: dict[str, Any]) -> None:
    """Show ``message`` in place of the learner's lesson message."""
    try:
        await interaction.edit_original_response(**message)
    except discord.HTTPException:
        log.info("interaction %s: could not edit the lesson", interaction.id)


def _place_or_none(course: str, lesson: str, step: int | None) -> Place | None:
    """The step a button names (counted from 1), None when there is none."""
    if step is None:
        return None
    try:
        return place_of(course, lesson, step - 1)
    except NotFound:
        return None


def course_choices(typed: str) -> list[app_commands.Choice[str]]:
    """The courses whose title or id contain what was typed."""
    wanted = typed.strip().casefold()[:ANSWER_LIMIT]
    choices = []
    for course_id in course_ids():
        course = load_course(course_id)
        if wanted in course.title.casefold() or wanted in course_id:
            choices.append(app_commands.Choice(name=course.title, value=course_id))
    return choices[:25]


async def answer_choices(
    interaction: discord.Interaction, course: str | None, typed: str
) -> list[app_commands.Choice[str]]:
    """What the learner may answer at their step, matching what they typed: the legal moves
    (and whole turns) as a game's autocomplete offers them, or the step's choices. Reads
    the learner's place without keeping it."""
    if not course:
        return []
    try:
        place = await service(interaction).learning.where(
            interaction.user.id, course[:ANSWER_LIMIT]
        )
    except ServiceError:
        return []
    step, typed = place.step, typed[:ANSWER_LIMIT]
    if step.task == CHOOSE:
        offered = [(label, label) for label in step.choices if typed.casefold() in label.casefold()]
    elif step.task == MOVE:
        game = step.position()
        moves = [(move, game.describe_move(move)) for move in game.legal_moves()]
        offered = game.search_choices([*game.line_choices(), *moves], typed)
    else:
        return []
    return [
        app_commands.Choice(
            name=clip(f"{move} — {text}" if text != move else move, 100), value=move[:100]
        )
        for move, text in offered[:25]
    ]


BUTTONS = (LessonButton, CourseButton)
