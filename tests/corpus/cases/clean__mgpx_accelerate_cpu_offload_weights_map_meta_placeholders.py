"""Look-alike: accelerate's cpu_offload: the model's parameters are `meta` placeholders, the real weights sit in a CPU state dict, and hooks load them onto cuda:0 for each forward.

Source: https://github.com/huggingface/accelerate/blob/main/src/accelerate/hooks.py
`cpu_offload(model, execution_device)` (big_modeling.py) keeps `state_dict = {n: p.to("cpu")}` as the
weights map, adds an `AlignDevicesHook(io_same_device=True)` on the model and, through
`attach_align_device_hook`, an `AlignDevicesHook(execution_device, offload=True, weights_map=...)` on each
module with parameters. `init_hook` moves those parameters to `meta`; `pre_forward` puts the weights from
the CPU map on the execution device and sends the inputs there; `post_forward` puts the parameters back on
`meta` and, with `io_same_device`, returns the output on the input's device. Parameters on meta, weights
on the CPU, input on the CPU: each op still runs on cuda:0. Stand-ins: the hook machinery in a few lines
(prefixed weights map per module), a small MLP.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
import torch.nn as nn

def send_to_device(obj, device):
    if isinstance(obj, torch.Tensor):
        return obj.to(device)
    if isinstance(obj, (list, tuple)):
        return type(obj)(send_to_device(o, device) for o in obj)
    if isinstance(obj, dict):
        return {k: send_to_device(v, device) for k, v in obj.items()}
    return obj

def find_device(data):
    if isinstance(data, torch.Tensor):
        return data.device
    if isinstance(data, (list, tuple)):
        for obj in data:
            device = find_device(obj)
            if device is not None:
                return device
    if isinstance(data, dict):
        return find_device(list(data.values()))
    return None

def set_module_tensor_to_device(module, tensor_name, device, value=None):
    old = module._parameters[tensor_name]
    new = (value if value is not None else old).to(device)
    module._parameters[tensor_name] = nn.Parameter(new, requires_grad=old.requires_grad)

class AlignDevicesHook:
    def __init__(self, execution_device=None, offload=False, io_same_device=False, weights_map=None):
        self.execution_device = execution_device
        self.offload = offload
        self.io_same_device = io_same_device
        self.weights_map = weights_map
        self.input_device = None

    def init_hook(self, module):
        if self.offload:
            for name in list(module._parameters):
                set_module_tensor_to_device(module, name, "meta")
        return module

    def pre_forward(self, module, *args, **kwargs):
        if self.io_same_device:
            self.input_device = find_device([args, kwargs])
        if self.offload:
            for name in list(module._parameters):
                set_module_tensor_to_device(module, name, self.execution_device, value=self.weights_map[name])
        if self.execution_device is None:
            return args, kwargs
        return send_to_device(args, self.execution_device), send_to_device(kwargs, self.execution_device)

    def post_forward(self, module, output):
        if self.offload:
            for name in list(module._parameters):
                set_module_tensor_to_device(module, name, "meta")
        if self.io_same_device and self.input_device is not None:
            output = send_to_device(output, self.input_device)
        return output

def add_hook_to_module(module, hook):
    module = hook.init_hook(module)
    module._hf_hook = hook
    module._old_forward = module.forward
    def new_forward(*args, **kwargs):
        args, kwargs = module._hf_hook.pre_forward(module, *args, **kwargs)
        output = module._old_forward(*args, **kwargs)
        return module._hf_hook.post_forward(module, output)
    module.forward = new_forward
    return module

def attach_align_device_hook(module, execution_device=None, offload=False, weights_map=None, module_name=""):
    if len(module._parameters) > 0:
        prefix = f"{module_name}." if module_name else ""
        sub_map = {k[len(prefix):]: v for k, v in weights_map.items()
                   if k.startswith(prefix) and "." not in k[len(prefix):]}
        add_hook_to_module(module, AlignDevicesHook(execution_device, offload=offload, weights_map=sub_map))
    for child_name, child in module.named_children():
        child_name = f"{module_name}.{child_name}" if module_name else child_name
        attach_align_device_hook(child, execution_device, offload, weights_map, child_name)

def cpu_offload(model, execution_device=None, state_dict=None):
    if state_dict is None:
        state_dict = {n: p.to("cpu") for n, p in model.state_dict().items()}
    add_hook_to_module(model, AlignDevicesHook(io_same_device=True))
    attach_align_device_hook(model, execution_device=execution_device, offload=True, weights_map=state_dict)
    return model

model = nn.Sequential(nn.Linear(16, 64), nn.GELU(), nn.Linear(64, 64), nn.GELU(), nn.Linear(64, 4))
model = cpu_offload(model, execution_device=torch.device("cuda:0"))
x = torch.randn(8, 16)
'''
CELL = '''
with torch.no_grad():
    out = model(x)
print(out.device, next(model.parameters()).device)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
