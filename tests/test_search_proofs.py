"""How proven results (MCTS-Solver) choose the move, on hand-made trees: the soonest proven
win, never a proven loss while another move is open, the latest loss where all lose."""

from __future__ import annotations

from search.mcts import Node, Search


def child(visits: int, total: float, proof: tuple[float, int] | None = None) -> Node:
    node = Node()
    node.visits, node.total, node.proof = visits, total, proof
    return node


def tree(**children: Node) -> Node:
    root = Node()
    root.children = dict(children)
    root.untried = []
    return root


def test_the_soonest_proven_win_is_played_over_more_visited_moves():
    # Results are seat 0's; seat 0 (mine) moves here.
    root = tree(a=child(900, 800.0), b=child(50, 50.0, (1.0, 7)), c=child(40, 40.0, (1.0, 3)))
    assert Search._pick(root, mine=True) == "c"


def test_a_proven_loss_is_not_played_while_another_move_is_open():
    root = tree(a=child(900, 0.0, (0.0, 2)), b=child(100, 20.0))
    assert Search._pick(root, mine=True) == "b"
    # The other side moving: seat 0's win (1.0) is its loss.
    root = tree(a=child(900, 900.0, (1.0, 2)), b=child(100, 80.0))
    assert Search._pick(root, mine=False) == "b"


def test_where_every_move_is_a_proven_loss_the_latest_is_played():
    root = tree(a=child(500, 0.0, (0.0, 2)), b=child(10, 0.0, (0.0, 8)), c=child(90, 0.0, (0.0, 4)))
    assert Search._pick(root, mine=True) == "b"


def test_a_proof_goes_up_a_line_win_for_the_mover_all_losses_for_the_other():
    # seat 0 to move at the root; below "a" the other side moves, and both its answers
    # lose (in 3 and 1 plies): "a" is a proven win in 4 plies; the root then too.
    answer_x = child(1, 1.0, (1.0, 3))
    answer_y = child(1, 1.0, (1.0, 1))
    a = tree(x=answer_x, y=answer_y)
    root = tree(a=a, b=child(5, 2.0))
    Search._prove_up([root, a, answer_y], [True, False])
    assert a.proof == (1.0, 4)  # the other side loses as late as it can: after x
    assert root.proof == (1.0, 5)
    # One answer still open: nothing is proven.
    a = tree(x=answer_x, y=child(1, 0.5))
    root = tree(a=a, b=child(5, 2.0))
    Search._prove_up([root, a, answer_x], [True, False])
    assert a.proof is None and root.proof is None
