"""Look-alike: the RITM click predictor in Cutie's GUI keeps clicks as Python objects and builds the points tensor on the predictor's device only when it calls the network.

Source: https://github.com/hkchengrex/Cutie/blob/main/gui/ritm/inference/predictors/base.py
(with gui/ritm/inference/clicker.py)
`Clicker` stores `Click(is_positive, coords)` objects; `BasePredictor.get_points_nd` pads positive and
negative clicks with `(-1, -1, -1)` and returns `torch.tensor(total_clicks, device=self.device)`;
`set_input_image` keeps the (device) image and `prev_prediction = torch.zeros_like(image[:, :1])`, which
is concatenated to the image when the net uses the previous mask. CPU-side click bookkeeping next to a
device model is by design: no finding expected.
Stand-ins: Click / Clicker / BasePredictor (no transforms), the RITM HRNet reduced to a conv on the
image + previous mask and a linear map of the click coordinates. SIM "meta" (slicing the image).
"""

SIM = "meta"
FAMILY = "clean"
SETUP = '''
import torch
import torch.nn as nn
import torch.nn.functional as F

class Click:
    def __init__(self, is_positive, coords, indx=None):
        self.is_positive = is_positive
        self.coords = coords
        self.indx = indx

    @property
    def coords_and_indx(self):
        return (*self.coords, self.indx)

class Clicker:
    def __init__(self):
        self.clicks_list = []

    def add_click(self, click):
        click.indx = len(self.clicks_list)
        self.clicks_list.append(click)

    def get_clicks(self, clicks_limit=None):
        return self.clicks_list[:clicks_limit]

class ISModel(nn.Module):
    with_prev_mask = True

    def __init__(self):
        super().__init__()
        self.backbone = nn.Conv2d(4, 8, 3, padding=1)
        self.click_encoder = nn.Linear(3, 8)
        self.head = nn.Conv2d(8, 1, 1)

    def forward(self, image, points):
        feats = self.backbone(image) + self.click_encoder(points.float()).mean(dim=1)[:, :, None, None]
        return {"instances": self.head(feats)}

class BasePredictor:
    def __init__(self, model, device, net_clicks_limit=None, **kwargs):
        self.net = model
        self.device = device
        self.net_clicks_limit = net_clicks_limit
        self.original_image = None
        self.prev_prediction = None

    def set_input_image(self, image):
        self.original_image = image
        if len(self.original_image.shape) == 3:
            self.original_image = self.original_image.unsqueeze(0)
        self.prev_prediction = torch.zeros_like(self.original_image[:, :1, :, :])

    def get_prediction(self, clicker, prev_mask=None):
        clicks_list = clicker.get_clicks()
        input_image = self.original_image
        if prev_mask is None:
            prev_mask = self.prev_prediction
        if hasattr(self.net, "with_prev_mask") and self.net.with_prev_mask:
            input_image = torch.cat((input_image, prev_mask), dim=1)
        pred_logits = self._get_prediction(input_image, [clicks_list], False)
        prediction = F.interpolate(pred_logits, mode="bilinear", align_corners=True, size=input_image.size()[2:])
        self.prev_prediction = prediction
        return prediction

    def _get_prediction(self, image_nd, clicks_lists, is_image_changed):
        points_nd = self.get_points_nd(clicks_lists)
        return self.net(image_nd, points_nd)["instances"]

    def get_points_nd(self, clicks_lists):
        total_clicks = []
        num_pos_clicks = [sum(x.is_positive for x in clicks_list) for clicks_list in clicks_lists]
        num_neg_clicks = [len(clicks_list) - num_pos for clicks_list, num_pos in zip(clicks_lists, num_pos_clicks)]
        num_max_points = max(num_pos_clicks + num_neg_clicks)
        if self.net_clicks_limit is not None:
            num_max_points = min(self.net_clicks_limit, num_max_points)
        num_max_points = max(1, num_max_points)
        for clicks_list in clicks_lists:
            clicks_list = clicks_list[:self.net_clicks_limit]
            pos_clicks = [click.coords_and_indx for click in clicks_list if click.is_positive]
            pos_clicks = pos_clicks + (num_max_points - len(pos_clicks)) * [(-1, -1, -1)]
            neg_clicks = [click.coords_and_indx for click in clicks_list if not click.is_positive]
            neg_clicks = neg_clicks + (num_max_points - len(neg_clicks)) * [(-1, -1, -1)]
            total_clicks.append(pos_clicks + neg_clicks)
        return torch.tensor(total_clicks, device=self.device)

device = torch.device("meta")                      # the GUI's cfg.device ("cuda")
click_model = ISModel().to(device)
predictor = BasePredictor(click_model, device, net_clicks_limit=10)
image = torch.rand(3, 32, 48).to(device)           # image_to_torch(frame, device)
predictor.set_input_image(image)
clicker = Clicker()
'''
CELL = '''
clicker.add_click(Click(is_positive=True, coords=(12, 20)))
clicker.add_click(Click(is_positive=False, coords=(25, 40)))
pred_mask = predictor.get_prediction(clicker)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
