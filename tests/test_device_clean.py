"""The networks run wherever their parameters are (issue 31's `--device cuda`), checked
without a GPU: PyTorch's meta device computes shapes only and refuses any operation that
mixes it with a CPU tensor, so a forward that builds a tensor on the CPU (an index, a
table, a constant not registered as a buffer) fails here as it would on CUDA. Each
network reads a batch of real observations (the planes, the compact codes that the slim
network expands on its device, the deployment planes), then the masked logits, a PPO-like
loss and its backward pass run on that device. CUDA itself is not run: no development
machine has one (docs/training.md "On a GPU")."""
from __future__ import annotations

import pytest

import stratego

torch = pytest.importorskip("torch")

from stratego.agents.nets import ConvPolicyNet  # noqa: E402
from stratego.agents.slim_net import SlimPolicyNet  # noqa: E402
from stratego.agents.torch_policy import masked_logits  # noqa: E402

META = torch.device("meta")
CASES = [
    (SlimPolicyNet, {"blocks": 2}, "planes"),
    (SlimPolicyNet, {"blocks": 2}, "codes"),
    (SlimPolicyNet, {"blocks": 1, "deploy": True}, "codes"),
    (SlimPolicyNet, {"blocks": 1, "belief": True, "obs_dtype": "float32"}, "planes"),
    (ConvPolicyNet, {"blocks": 2}, "planes"),
    (ConvPolicyNet, {"blocks": 1, "deploy": True}, "planes"),
]


@pytest.mark.parametrize("cls,kwargs,obs_format", CASES,
                         ids=lambda c: c.__name__ if isinstance(c, type) else "-".join(map(str, c)) if isinstance(c, dict)
                         else str(c))
def test_a_network_runs_on_another_device_without_a_cpu_tensor(cls, kwargs, obs_format):
    torch.manual_seed(0)
    settings = cls(channels=4, history_k=2, **kwargs).observation_settings
    env = stratego.VecEnv(4, seed=1, obs_format=obs_format, **settings.env_kwargs())
    net = cls(num_actions=env.num_actions, channels=8, history_k=2, **kwargs)
    obs, info = env.reset(seed=2)
    assert obs.shape[0] == 4  # the planes, or the codes (one array either way here)
    net = net.to(META)
    x = torch.from_numpy(obs).to(META)
    mask = torch.from_numpy(info["action_mask"]).to(META)
    logits, value = net(x)
    assert logits.device == META and value.device == META
    assert tuple(logits.shape) == (4, env.num_actions) and tuple(value.shape) == (4,)
    logits = masked_logits(logits, mask)
    dist = torch.distributions.Categorical(logits=logits, validate_args=False)
    actions = torch.zeros(4, dtype=torch.int64, device=META)
    loss = -(dist.log_prob(actions)).mean() + ((value - torch.zeros(4, device=META)) ** 2).mean() \
        - 0.01 * dist.entropy().mean()
    loss.backward()
    grads = [p.grad for p in net.parameters() if p.requires_grad]
    assert grads and all(g is not None and g.device == META for g in grads)
    env.close()


def test_the_check_fails_on_a_cpu_tensor():
    """The meta device does refuse a CPU tensor in a forward: this test's premise."""
    class Leaky(torch.nn.Module):
        def forward(self, x):
            return x + torch.arange(x.shape[-1])

    with pytest.raises(RuntimeError, match="device"):
        Leaky()(torch.ones(2, 3, device=META))
