"""Look-alike: LayoutLMv3 keeps the patch-token boxes `visual_bbox` as a plain CPU tensor attribute and moves a copy to the input's device in every forward.

Source: https://github.com/huggingface/transformers/blob/main/src/transformers/models/layoutlmv3/modeling_layoutlmv3.py
(`LayoutLMv3Model.init_visual_bbox` / `calculate_visual_bbox` / `forward`)
`init_visual_bbox` stores `self.visual_bbox = torch.cat([cls_token_box, visual_bbox])` as a plain
attribute (not a buffer, so `model.to("cuda")` leaves it on the CPU), but `forward` only uses it
through `calculate_visual_bbox(device, dtype=torch.long, batch_size)`, which does
`visual_bbox.to(device).type(dtype)`, and builds the visual attention mask and position ids with
`device=device`. The usual token-classification inference (`encoding` items moved to the device)
runs. Nothing to report. Stand-in: a reduced LayoutLMv3ForTokenClassification (word + 2D position
embeddings, patch embedding with [CLS] and position embedding, one encoder layer, classifier).
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn

class LayoutLMv3Model(nn.Module):
    def __init__(self, vocab_size=100, hidden_size=32, max_2d=1024, patch_size=16, input_size=64):
        super().__init__()
        self.word_embeddings = nn.Embedding(vocab_size, hidden_size)
        self.x_position_embeddings = nn.Embedding(max_2d, hidden_size)
        self.y_position_embeddings = nn.Embedding(max_2d, hidden_size)
        self.patch_embed = nn.Conv2d(3, hidden_size, kernel_size=patch_size, stride=patch_size)
        self.cls_token = nn.Parameter(torch.zeros(1, 1, hidden_size))
        n = (input_size // patch_size) ** 2
        self.pos_embed = nn.Parameter(torch.zeros(1, n + 1, hidden_size))
        self.visual_position_embeddings = nn.Embedding(n + 1, hidden_size)
        self.norm = nn.LayerNorm(hidden_size)
        self.encoder = nn.TransformerEncoderLayer(hidden_size, 4, 64, batch_first=True)
        self.init_visual_bbox(image_size=(input_size // patch_size, input_size // patch_size))

    def init_visual_bbox(self, image_size=(14, 14), max_len=1000):
        visual_bbox_x = torch.div(torch.arange(0, max_len * (image_size[1] + 1), max_len), image_size[1], rounding_mode="trunc")
        visual_bbox_y = torch.div(torch.arange(0, max_len * (image_size[0] + 1), max_len), image_size[0], rounding_mode="trunc")
        visual_bbox = torch.stack([
            visual_bbox_x[:-1].repeat(image_size[0], 1),
            visual_bbox_y[:-1].repeat(image_size[1], 1).transpose(0, 1),
            visual_bbox_x[1:].repeat(image_size[0], 1),
            visual_bbox_y[1:].repeat(image_size[1], 1).transpose(0, 1)], dim=-1).view(-1, 4)
        cls_token_box = torch.tensor([[0 + 1, 0 + 1, max_len - 1, max_len - 1]])
        self.visual_bbox = torch.cat([cls_token_box, visual_bbox], dim=0)

    def calculate_visual_bbox(self, device, dtype, batch_size):
        visual_bbox = self.visual_bbox.repeat(batch_size, 1, 1)
        visual_bbox = visual_bbox.to(device).type(dtype)
        return visual_bbox

    def forward_image(self, pixel_values):
        embeddings = self.patch_embed(pixel_values).flatten(2).transpose(1, 2)
        batch_size = embeddings.shape[0]
        embeddings = torch.cat((self.cls_token.expand(batch_size, -1, -1), embeddings), dim=1)
        return self.norm(embeddings + self.pos_embed)

    def spatial(self, bbox):
        return (self.x_position_embeddings(bbox[:, :, 0]) + self.y_position_embeddings(bbox[:, :, 1])
                + self.x_position_embeddings(bbox[:, :, 2]) + self.y_position_embeddings(bbox[:, :, 3]))

    def forward(self, input_ids, bbox, attention_mask, pixel_values):
        device = input_ids.device
        batch_size = input_ids.shape[0]
        text = self.word_embeddings(input_ids) + self.spatial(bbox)
        visual_embeddings = self.forward_image(pixel_values)
        visual_attention_mask = torch.ones((batch_size, visual_embeddings.shape[1]), dtype=torch.long, device=device)
        attention_mask = torch.cat([attention_mask, visual_attention_mask], dim=1)
        visual_bbox = self.calculate_visual_bbox(device, dtype=torch.long, batch_size=batch_size)
        final_bbox = torch.cat([bbox, visual_bbox], dim=1)
        visual_position_ids = torch.arange(0, visual_embeddings.shape[1], dtype=torch.long, device=device).repeat(batch_size, 1)
        visual_embeddings = visual_embeddings + self.visual_position_embeddings(visual_position_ids)
        hidden = torch.cat([text, visual_embeddings], dim=1) + 0 * self.spatial(final_bbox)
        return self.encoder(hidden, src_key_padding_mask=attention_mask == 0)

class LayoutLMv3ForTokenClassification(nn.Module):
    def __init__(self, num_labels=7):
        super().__init__()
        self.layoutlmv3 = LayoutLMv3Model()
        self.classifier = nn.Linear(32, num_labels)
    def forward(self, input_ids, bbox, attention_mask, pixel_values):
        seq_length = input_ids.shape[1]
        sequence_output = self.layoutlmv3(input_ids, bbox, attention_mask, pixel_values)[:, :seq_length]
        return {"logits": self.classifier(sequence_output)}

device = torch.device("cuda:0")                         # "cuda" if torch.cuda.is_available() else "cpu"
model = LayoutLMv3ForTokenClassification().to(device)   # from_pretrained(".../checkpoint")
model.eval()
boxes = torch.randint(0, 500, (1, 12, 2))
encoding = {"input_ids": torch.randint(0, 100, (1, 12)),               # processor(image, words, boxes=boxes, return_tensors="pt")
            "attention_mask": torch.ones(1, 12, dtype=torch.long),
            "bbox": torch.cat([boxes, boxes + 20], dim=-1),
            "pixel_values": torch.rand(1, 3, 64, 64)}
'''
CELL = '''
encoding = {k: v.to(device) for k, v in encoding.items()}
with torch.no_grad():
    outputs = model(**encoding)
predictions = outputs["logits"].argmax(-1)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
