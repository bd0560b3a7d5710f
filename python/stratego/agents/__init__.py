"""Players and their evaluation: the policy protocol and saved policies (`policy`,
`policy_file`, `torch_policy`, `nets`), opponents for an env (`opponent`), self-play
returns (`selfplay`), the arena and its Elo ratings (`arena`, `elo`)."""
