"""The classic game behind other libraries' interfaces: Gymnasium (`gym_env`, against an
opponent), PettingZoo, OpenSpiel, Stable-Baselines3, Ray and RLlib (`distributed`,
`rllib`). Each needs its library (an extra of pyproject.toml) only when imported."""
