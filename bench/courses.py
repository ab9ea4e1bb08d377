"""The courses of ``/game learn`` played through (issue 34): every step of every course
answered by a script with each of its answers, each wrong answer it lists, and every other
legal move, with ``bot.domain.learn.check``; the steps without a reason for some answer are
counted (target: none). Also the time to check an answer (the position built from the file,
the move read by the engine) and to draw a step's picture, both on the event loop's side of
the work: checking p95 <= 50 ms, a picture p95 <= 100 ms (it runs in a worker)."""

from __future__ import annotations

from bot.domain.learn import CHOOSE, READ, check, course_ids, load_course
from bot.domain.learn.pictures import step_picture

from .timing import machine_load, percentile, time_ms, verdict

CHECK_P95_MS = 50.0
PICTURE_P95_MS = 100.0


def play_course(course_id: str) -> dict[str, object]:
    """One course played through: its counts, the steps with an answer left without a
    reason, and the times."""
    course = load_course(course_id)
    steps = rights = wrongs = others = 0
    silent: list[str] = []
    check_times: list[float] = []
    picture_times: list[float] = []
    for lesson in course.lessons:
        for index, step in enumerate(lesson.steps):
            steps += 1
            where = f"{lesson.id} step {index + 1}"
            picture_times.append(time_ms(lambda step=step: step_picture(step)))
            if step.task == READ:
                continue
            for text in step.answer:
                check_times.append(time_ms(lambda text=text, step=step: check(step, text)))
                rights += check(step, text).right
            for text, reason in step.wrong.items():
                verdict_ = check(step, text)
                wrongs += 1
                if verdict_.right or verdict_.reason != reason:
                    silent.append(f"{where}: {text!r}")
            tried = step.choices if step.task == CHOOSE else step.position().legal_moves()
            for text in tried:
                if text in step.answer or text in step.wrong:
                    continue
                others += 1
                verdict_ = check(step, text)
                if verdict_.right or not verdict_.reason:
                    silent.append(f"{where}: {text!r}")
    return {
        "lessons": len(course.lessons),
        "steps": steps,
        "rights": rights,
        "wrongs": wrongs,
        "others": others,
        "silent": silent,
        "check_p95": percentile(check_times, 0.95) if check_times else 0.0,
        "picture_p95": percentile(picture_times, 0.95),
    }


def main() -> None:
    print(f"Courses played through (/game learn, idzeva learn): {machine_load()}")
    print(
        f"  {'course':<10} {'lessons':>7} {'steps':>5} {'answers':>7} {'wrong':>5}"
        f" {'other':>5} {'no reason':>9} {'check p95':>10} {'picture p95':>12}"
    )
    for course_id in course_ids():
        played = play_course(course_id)
        silent = played["silent"]
        check_p95, picture_p95 = played["check_p95"], played["picture_p95"]
        print(
            f"  {course_id:<10} {played['lessons']:>7} {played['steps']:>5}"
            f" {played['rights']:>7} {played['wrongs']:>5} {played['others']:>5}"
            f" {len(silent):>9} {check_p95:>7.1f} ms {picture_p95:>9.1f} ms"
            f" {verdict(check_p95, CHECK_P95_MS)} {verdict(picture_p95, PICTURE_P95_MS)}"
            + (" MISSES TARGET (a reason)" if silent else "")
        )
        for where in silent:
            print(f"    no reason of its own: {where}")
    print()


if __name__ == "__main__":
    main()
