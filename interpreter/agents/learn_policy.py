"""The learning example's policy: an option scored by what it names, so that what is learnt of a component
holds in every option naming it (sb3-contrib's MaskablePPO with a policy of its own; needs the `learn` extra).

A game's fixed action space gives each whole option an id of its own (`play_unit orcs_warrior_1
elves_tower_2`): King's Bounty 2p has 11,615. A plain policy head has a weight row per id, which shares
nothing between the options naming the same unit or the same domain, and sees each of them too rarely to
learn. This head scores an action from its words instead, all read from the game's content and the named
observation, with no game in the code:

- the table: an MLP over the whole observation, `s`;
- each component: its row of the observation (the features named `<id>:...`: where it lies, on what, face
  down, picked...), its record's attributes (its kind, each enum attribute one-hot, each number over the
  largest of its kind) and an embedding of its own, together with `s`, through a layer of `width` units,
  then one score per place a component can hold in an option: alone (a card chosen), or the k-th thing an
  option of a given name names (the unit of `play_unit`, its target, the card of `play_domain`);
- each word (an option's name, a player, a number, `done`...): a score from `s`.

A word's logit is its score (plus its component's score if it is a component); a whole option's is its
name's score plus the scores of what it names in their places (a player by its word's score). So an action
keeps one meaning from state to state, and its logit is computed for all 11,615 from some 107 component
rows: cheap, where a dense head over them is the largest cost of a step. The value is a plain MLP.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import partial

import numpy as np
import torch as th
from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy
from torch import nn


@dataclass
class Layout:
    """Where the head reads each component's features and what each action is made of (numpy arrays,
    picklable: a saved model keeps it)."""
    obs_dim: int
    rows: np.ndarray    # (components, r): observation indices of each component's row (obs_dim: none)
    static: np.ndarray  # (components, f): the record's attributes, scaled
    words: int          # word scores
    scores: int         # scores per component: 1 (alone) + one per (option name, place)
    parts: np.ndarray   # (actions, places): what an action's logit adds up, as indices into the word
    #                     scores, then the components' scores (component c, score k at words + c * scores + k),
    #                     then a zero


def layout(env) -> Layout:
    """The head's layout for a PettingZoo environment (`pettingzoo_env.RulesEnv`, the fixed action space)."""
    space, content = env.space, env.compiled.content
    spec = env.observation_spec()
    components = sorted(content.entity_ids)
    index = {c: i for i, c in enumerate(components)}
    features: list[list[int]] = [[] for _ in components]
    for i, (name, _, _) in enumerate(spec):
        c = index.get(name.split(":", 1)[0])
        if c is not None and ":" in name:
            features[c].append(i)
    rows = np.full((len(components), max(len(f) for f in features)), len(spec), np.int64)
    for c, f in enumerate(features):
        rows[c, :len(f)] = f
    words = len(space.words)
    places: dict = {}  # (option name, k) -> its score's number (0: a component alone)
    for row in space.wholes:
        for j, w in enumerate(row[1:]):
            if space.words[w] in index:
                places.setdefault((row[0], j), 1 + len(places))
    scores = 1 + len(places)
    zero = words + len(components) * scores
    width = 1 + max((len(row) - 1 for row in space.wholes), default=1)
    parts = np.full((words + len(space.wholes), width), zero, np.int64)
    for w, word in enumerate(space.words):  # a word: its score, and its component's score alone
        parts[w, 0] = w
        if word in index:
            parts[w, 1] = words + index[word] * scores
    for a, row in enumerate(space.wholes):  # a whole option: its name's score, and what it names in their places
        parts[words + a, 0] = row[0]
        for j, w in enumerate(row[1:]):
            c = index.get(space.words[w])
            parts[words + a, 1 + j] = w if c is None else words + c * scores + places[(row[0], j)]
    return Layout(len(spec), rows, _attributes(env, components), words, scores, parts)


def _attributes(env, components: list) -> np.ndarray:
    """Each component's record, as numbers: its kind and enum attributes one-hot, its number attributes over
    the largest value any component has."""
    vocabulary = env.compiled.content.vocabulary
    entities = _entities(env)
    columns: list = [("kind", k) for k in sorted(vocabulary.kinds)]
    for attribute, kind in sorted(vocabulary.attributes.items()):
        if kind == "number":
            columns.append((attribute, None))
        elif kind in vocabulary.enums:
            columns.extend((attribute, v) for v in vocabulary.enums[kind])
    out = np.zeros((len(components), len(columns)), np.float32)
    for c, cid in enumerate(components):
        attrs = entities[cid].attrs
        for j, (attribute, value) in enumerate(columns):
            got = attrs.get(attribute)
            if value is None:
                out[c, j] = float(got) if isinstance(got, (int, float)) and not isinstance(got, bool) else 0.0
            else:
                out[c, j] = 1.0 if got == value else 0.0
    top = np.abs(out).max(axis=0)
    return out / np.where(top > 0, top, 1.0)


def _entities(env) -> dict:
    """The components of a game as dealt (their records' attributes do not change)."""
    from interpreter.agents.line import Line
    line = env.line if env.line is not None else Line(env.compiled, env.players, 0, env.variants, lazy=True)
    return line.session.state.entities


class OptionScores(nn.Module):
    """Logits of every action from the observation (see the module's doc)."""

    def __init__(self, plan: Layout, hidden: int = 64, width: int = 32):
        super().__init__()
        self.register_buffer("rows", th.as_tensor(plan.rows), persistent=False)
        self.register_buffer("static", th.as_tensor(plan.static), persistent=False)
        self.register_buffer("parts", th.as_tensor(plan.parts).T.contiguous(), persistent=False)
        n, r = plan.rows.shape
        self.table = nn.Sequential(nn.Linear(plan.obs_dim, hidden), nn.Tanh(), nn.Linear(hidden, hidden), nn.Tanh())
        self.row = nn.Linear(r, width)
        self.record = nn.Linear(plan.static.shape[1], width, bias=False)
        self.own = nn.Embedding(n, width)
        self.context = nn.Linear(hidden, width, bias=False)
        self.component_scores = nn.Linear(width, plan.scores)
        self.word_scores = nn.Linear(hidden, plan.words)
        for layer in (self.component_scores, self.word_scores):  # a near-uniform policy to begin with
            nn.init.orthogonal_(layer.weight, gain=0.01)
            nn.init.zeros_(layer.bias)
        nn.init.normal_(self.own.weight, std=0.1)

    def forward(self, obs: th.Tensor) -> th.Tensor:
        s = self.table(obs)
        padded = th.cat([obs, obs.new_zeros(obs.shape[0], 1)], dim=1)
        rows = padded[:, self.rows]                                         # (B, components, r)
        own = self.record(self.static) + self.own.weight                    # (components, width)
        h = th.relu(self.row(rows) + own + self.context(s)[:, None, :])
        q = self.component_scores(h)                                        # (B, components, scores)
        scores = th.cat([self.word_scores(s), q.flatten(1), obs.new_zeros(obs.shape[0], 1)], dim=1)
        logits = scores.index_select(1, self.parts[0])  # one column at a time: far cheaper than one gather
        for part in self.parts[1:]:
            logits = logits + scores.index_select(1, part)
        return logits


class _Split(nn.Module):
    """The actor reads the observation itself (the head does its own layers); the critic an MLP of it."""

    def __init__(self, obs_dim: int, hidden: int):
        super().__init__()
        self.latent_dim_pi, self.latent_dim_vf = obs_dim, hidden
        self.value = nn.Sequential(nn.Linear(obs_dim, hidden), nn.Tanh(), nn.Linear(hidden, hidden), nn.Tanh())

    def forward(self, features):
        return features, self.value(features)

    def forward_actor(self, features):
        return features

    def forward_critic(self, features):
        return self.value(features)


class OptionsPolicy(MaskableActorCriticPolicy):
    """MaskablePPO's policy with the option-scoring head (`policy_kwargs={"plan": layout(env)}`)."""

    def __init__(self, *args, plan: Layout, hidden: int = 64, width: int = 32, **kwargs):
        self.plan, self.hidden, self.width = plan, hidden, width
        super().__init__(*args, **kwargs)

    def _build_mlp_extractor(self) -> None:
        self.mlp_extractor = _Split(self.features_dim, self.hidden)

    def _build(self, lr_schedule) -> None:
        # sb3's own _build would first make (and orthogonally initialise) a dense head of obs_dim x actions
        self._build_mlp_extractor()
        self.action_net = OptionScores(self.plan, self.hidden, self.width)
        self.value_net = nn.Linear(self.mlp_extractor.latent_dim_vf, 1)
        if self.ortho_init:
            self.mlp_extractor.apply(partial(self.init_weights, gain=np.sqrt(2)))
            self.value_net.apply(partial(self.init_weights, gain=1))
        self.optimizer = self.optimizer_class(self.parameters(), lr=lr_schedule(1), **self.optimizer_kwargs)

    def _get_constructor_parameters(self) -> dict:
        return {**super()._get_constructor_parameters(), "plan": self.plan, "hidden": self.hidden, "width": self.width}
