"""NLP-Tutorials seq2seq: the date dataset's numpy int32 batches reach `cross_entropy` as Int targets.

Source: https://github.com/MorvanZhou/NLP-Tutorials/issues/20
Running the PyTorch seq2seq tutorial raised "expected scalar type Long but found Int" at line 81,
the `cross_entropy(logit.reshape(-1, self.dec_v_dim), dec_out.reshape(-1))` of `Seq2Seq.step`: the
DateData arrays are built with numpy's default integer (int32 on Windows), so the DataLoader's
`by` is torch.int32; the embeddings accept it, the loss does not. The contributor's fix:
`bx = bx.type(torch.LongTensor); by = by.type(torch.LongTensor)` after unpacking the batch.
The dataset is stood in for by random int32 index arrays of the same shapes.
"""

SIM = "cpu"
FAMILY = "dtype-target"
SETUP = '''
import numpy as np
import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset
from torch.nn.functional import cross_entropy

class Seq2Seq(nn.Module):
    def __init__(self,enc_v_dim, dec_v_dim, emb_dim, units, max_pred_len, start_token, end_token):
        super().__init__()
        self.units = units
        self.dec_v_dim = dec_v_dim
        self.enc_embeddings = nn.Embedding(enc_v_dim,emb_dim)
        self.enc_embeddings.weight.data.normal_(0,0.1)
        self.encoder = nn.LSTM(emb_dim,units,1,batch_first=True)
        self.dec_embeddings = nn.Embedding(dec_v_dim,emb_dim)
        self.dec_embeddings.weight.data.normal_(0,0.1)
        self.decoder_cell = nn.LSTMCell(emb_dim,units)
        self.decoder_dense = nn.Linear(units,dec_v_dim)
        self.opt = torch.optim.Adam(self.parameters(),lr=0.001)
        self.max_pred_len = max_pred_len
        self.start_token = start_token
        self.end_token = end_token

    def encode(self,x):
        embedded = self.enc_embeddings(x)
        hidden = (torch.zeros(1,x.shape[0],self.units),torch.zeros(1,x.shape[0],self.units))
        o,(h,c) = self.encoder(embedded,hidden)
        return h,c

    def train_logit(self,x,y):
        hx,cx = self.encode(x)
        hx,cx = hx[0],cx[0]
        dec_in = y[:,:-1]
        dec_emb_in = self.dec_embeddings(dec_in)
        dec_emb_in = dec_emb_in.permute(1,0,2)
        output = []
        for i in range(dec_emb_in.shape[0]):
            hx, cx = self.decoder_cell(dec_emb_in[i], (hx, cx))
            o = self.decoder_dense(hx)
            output.append(o)
        output = torch.stack(output,dim=0)
        return output.permute(1,0,2)

    def step(self,x,y):
        self.opt.zero_grad()
        batch_size = x.shape[0]
        logit = self.train_logit(x,y)
        dec_out = y[:,1:]
        loss = cross_entropy(logit.reshape(-1,self.dec_v_dim),dec_out.reshape(-1))
        loss.backward()
        self.opt.step()
        return loss.detach().numpy()

# utils.DateData(4000): index arrays built with numpy's default int (int32 on Windows)
num_word, start_token, end_token = 27, 25, 26
x = np.random.randint(0, 25, size=(64, 8)).astype(np.int32)
y = np.random.randint(0, 25, size=(64, 11)).astype(np.int32)
decoder_len = np.full((64,), 11, dtype=np.int32)
dataset = TensorDataset(torch.from_numpy(x), torch.from_numpy(y), torch.from_numpy(decoder_len))
loader = DataLoader(dataset,batch_size=32,shuffle=True)
model = Seq2Seq(num_word,num_word,emb_dim=16,units=32,max_pred_len=11,start_token=start_token,end_token=end_token)
bx, by, decoder_len = next(iter(loader))
'''
CELL = '''
loss = model.step(bx,by)
'''
EXPECT_ERROR = ("expected scalar type Long but found Int", "expected target dtype to be Long")
CULPRITS = ["by"]
FIX = "namespace"
REFERENCE_FIX = '''
bx = bx.type(torch.LongTensor)
by = by.type(torch.LongTensor)
'''
REFERENCE_EDIT = None
CLEAN = False
