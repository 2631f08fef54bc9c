"""MONAI Auto3DSeg AlgoEnsemble: one algorithm falls back to CPU sliding-window inference, the others predict on the GPU, and the mean ensemble stacks them.

Source: https://github.com/Project-MONAI/MONAI/issues/6361
"Different algorithms may return results on different devices (CPU or GPU), e.g. if algo didn't have
enough gpu memory it may do CPU based slidingwindow inference. So than when we do Ensembling, some
internal function concatenate the predictions and it fails, since the predictions are on different
devices" (from research-contributions#211). `AlgoEnsemble.__call__` collects `pred[0]` from each
algo's `predict` and hands the list to `ensemble_pred`, whose `MeanEnsemble` stacks them. MONAI
fixed it by moving the predictions to one device before ensembling. Stand-ins: the algo wrappers
(small conv nets; segresnet's memory check forced to fail), AlgoEnsembleBestN reduced to `__call__`
and `ensemble_pred`, the image by a tensor instead of a file.
"""

SIM = "fake_cuda"
FAMILY = "device-multi"
SETUP = '''
import torch
import torch.nn as nn

class InferClass:
    """an Auto3DSeg algo's scripts/infer.py InferClass"""
    def __init__(self, name, device, enough_gpu_memory=True):
        self.name = name
        self.model = nn.Sequential(nn.Conv3d(1, 4, 3, padding=1), nn.ReLU(), nn.Conv3d(4, 3, 1)).to(device)
        self.device = device
        self.sw_device = device if enough_gpu_memory else torch.device("cpu")

    def predict(self, predict_files, predict_params=None):
        outs = []
        with torch.no_grad():
            for img in predict_files:
                if self.sw_device.type == "cpu":          # not enough GPU memory: CPU sliding window
                    self.model.to("cpu")
                    logits = self.model(img.to("cpu"))
                else:
                    logits = self.model(img.to(self.device))
                outs.append(torch.softmax(logits, dim=1).squeeze(0))
        return outs

class MeanEnsemble:
    def __call__(self, img):
        return torch.stack(list(img)).mean(dim=0)

class AlgoEnsembleBestN:
    def __init__(self, n_best=3):
        self.n_best = n_best
        self.algos = []

    def set_algos(self, infer_algos):
        self.algos = [{"identifier": a.name, "infer_algo": a} for a in infer_algos]

    def get_algo_ensemble(self):
        return self.algos[: self.n_best]

    def ensemble_pred(self, preds, sigmoid=False):
        prob = MeanEnsemble()(preds)
        return prob.argmax(dim=0, keepdim=True)

    def __call__(self, pred_param=None):
        files = pred_param["files"]
        outputs = []
        for file in files:
            preds = []
            for algo in self.get_algo_ensemble():
                infer_instance = algo["infer_algo"]
                pred = infer_instance.predict(predict_files=[file], predict_params=pred_param)
                preds.append(pred[0])
            outputs.append(self.ensemble_pred(preds))
        return outputs

device = torch.device("cuda:0")
ensembler = AlgoEnsembleBestN(n_best=3)
ensembler.set_algos([InferClass("dints_0", device), InferClass("segresnet_0", device, enough_gpu_memory=False),
                     InferClass("swinunetr_0", device)])
test_files = [torch.rand(1, 1, 32, 32, 16)]
'''
CELL = '''
preds = ensembler(pred_param={"files": test_files, "mode": "mean", "sigmoid": False})
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["ensembler"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("        prob = MeanEnsemble()(preds)\n",
                  "        preds = [p.to(preds[0].device) for p in preds]\n        prob = MeanEnsemble()(preds)\n")
CLEAN = False
